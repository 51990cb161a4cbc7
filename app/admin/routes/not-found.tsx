import { Link } from 'react-router';
import { useConsoleT } from '../lib/console-context';
import { EmptyState } from '../components/ui';

export default function ConsoleNotFound() {
  const t = useConsoleT();
  return (
    <EmptyState title={t('console.notFound.title')}>
      <Link className="button" to="/admin">
        {t('console.notFound.home')}
      </Link>
    </EmptyState>
  );
}
