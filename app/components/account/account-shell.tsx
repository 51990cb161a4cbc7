import type { StorefrontLoadContext } from '~/lib/context';
import { AccountProvider } from './account-context';
import { ToastProvider } from './toast';

/** Wraps the storefront shell with toasts and the account state (login modal, captcha, session). */
export function AccountShell({ children }: { children: React.ReactNode }) {
  return (
    <ToastProvider>
      <AccountProvider>{children}</AccountProvider>
    </ToastProvider>
  );
}

/**
 * The account bits of the root loader's data: whether 'Other login methods' offers Google
 * (only when the server has a Google client id). Nothing per visitor.
 */
export function accountRootData(context: StorefrontLoadContext) {
  return { google: context.services.customers.googlePublicConfig(context.ctx.env).enabled };
}
