/**
 * The accounts domain as the storefront sees it (`services.customers`): the same functions
 * the `/v1/user/*` handlers call, so a login form action and the API behave alike.
 */
export {
  changePassword,
  findUserById,
  loginAnswer,
  loginWithPassword,
  register,
  updateProfile,
  userView,
} from './accounts.service';
export {
  changePasswordSchema,
  loginByCodeSchema,
  loginSchema,
  registerSchema,
  sendCodeSchema,
  updateProfileSchema,
  maskMobile,
} from './accounts.schemas';
export { loginWithCode, sendLoginCode, CODE_RESEND_SECONDS } from './email-codes.service';
export { googlePublicConfig, startGoogleSignIn, signInWithIdToken } from './google.service';
export { createCaptcha, CAPTCHA_INVALID_CODE } from '../captcha/captcha.service';
