import { Breadcrumb } from '../ui/breadcrumb';

/** A page's title band with a breadcrumb back to the shop. */
export function PageHeader({ title, lead }: { title: string; lead?: string }) {
  return (
    <header className="page-header">
      <div className="container">
        <Breadcrumb current={title} />
        <h1 className="page-header__title">{title}</h1>
        {lead ? <p className="page-header__lead">{lead}</p> : null}
      </div>
    </header>
  );
}
