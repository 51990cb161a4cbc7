import { AppError, ForbiddenError, NotFoundError } from '../../shared/errors';

/** Wrong email or password, an unknown email, or a disabled member: the same answer for all three. */
export class StaffSignInError extends AppError {
  constructor() {
    super('badRequest', 'adminStaff.signIn.invalid');
  }
}

export class SecondFactorError extends AppError {
  constructor() {
    super('badRequest', 'adminStaff.secondFactor.invalid');
  }
}

/** The sign-in challenge is gone: expired, used, or given up after too many wrong codes. */
export class ChallengeExpiredError extends AppError {
  constructor() {
    super('badRequest', 'adminStaff.secondFactor.expired');
  }
}

/** A setup or invitation link that is unknown, expired, used or revoked. */
export class LinkInvalidError extends NotFoundError {
  constructor() {
    super('adminStaff.link.invalid');
  }
}

export class StaffConflictError extends AppError {
  constructor(
    key:
      | 'adminStaff.setup.closed'
      | 'adminStaff.email.taken'
      | 'adminStaff.lastOwner'
      | 'adminStaff.self'
      | 'adminStaff.role.builtIn'
      | 'adminStaff.role.builtInDelete'
      | 'adminStaff.totp.alreadyOn'
      | 'adminStaff.totp.notStarted'
      | 'adminStaff.totp.off'
      | 'adminStaff.totp.required',
  ) {
    super('conflict', key);
  }
}

export class RoleInUseError extends AppError {
  constructor(count: number) {
    super('conflict', 'adminStaff.role.inUse', { count });
  }
}

export class StaffBadRequestError extends AppError {
  constructor(key: 'adminStaff.setup.emailMismatch' | 'adminStaff.role.unknown' | 'adminStaff.password.wrongCurrent') {
    super('badRequest', key);
  }
}

export class OwnerOnlyError extends ForbiddenError {
  constructor() {
    super('adminStaff.ownerOnly');
  }
}

export class GrantBeyondOwnError extends ForbiddenError {
  constructor() {
    super('adminStaff.grantBeyondOwn');
  }
}
