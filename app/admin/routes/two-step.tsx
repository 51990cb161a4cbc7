import { useConsole, useConsoleT } from '../lib/console-context';
import { PageHeader } from '../components/ui';
import { TwoStepEnrol } from '../components/two-step-enrol';

/** Where an Owner without two-step sign-in lands (the shell sends them here) and anyone may enrol. */
export default function TwoStepPage() {
  const t = useConsoleT();
  const { staff } = useConsole();
  const required = staff?.second_factor.required && !staff.second_factor.enabled;
  return (
    <>
      <PageHeader title={t('console.twoStep.title')}>
        <p className="muted">{t(required ? 'console.twoStep.required' : 'console.twoStep.intro')}</p>
      </PageHeader>
      <section className="card card--narrow">
        {/* A full load afterwards: the session now counts as two-step and the whole console opens. */}
        <TwoStepEnrol onDone={() => window.location.assign('/admin')} />
      </section>
    </>
  );
}
