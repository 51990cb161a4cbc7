import { data } from 'react-router';
import { pageMeta } from '~/lib/seo';
import type { Route } from './+types/content-page';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const slug = new URL(request.url).pathname.split('/')[2];
  const page = await context.services.content.getContentPage(context.ctx, slug, context.ctx.locale);
  if (!page) throw data(null, { status: 404 });
  return { page, locale: params.locale };
}

export const meta: Route.MetaFunction = ({ matches, data }) =>
  pageMeta(matches, { title: data?.page.title, description: data?.page.summary });

export default function ContentPage({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  return (
    <main id="main">
      <h1>{page.title}</h1>
      <p>{page.summary}</p>
    </main>
  );
}
