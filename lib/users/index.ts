import 'server-only';
/**
 * lib/users: the dashboard's accounts (users of a merchant with a role), their passwords,
 * server-side sessions, one-time links, sign-in throttling, two-factor and the audit log.
 */
export { ROLES, PERMISSIONS, can, planPermission, type Role, type Permission } from './permissions';
export { AccountError } from './errors';
export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from './passwords';
export {
  SESSION_COOKIE,
  openSession,
  readSession,
  revokeSession,
  revokeUserSessions,
  sessionCookie,
  sessionPolicy,
  setSessionMode,
  type DashboardSession,
  type NewSession,
  type SessionPolicy,
  type SessionStage,
} from './sessions';
export {
  LINK_LIFETIME_MS,
  changeRole,
  createUser,
  disableUser,
  findUser,
  findUserByEmail,
  isRole,
  issueLink,
  listUsers,
  normaliseEmail,
  readLink,
  removeUser,
  resetPassword,
  changePassword,
  spendLink,
  type CreateUserInput,
  type LinkDetails,
  type LinkPurpose,
  type OneTimeLink,
  type User,
} from './accounts';
export { listAudit, recordAudit, type AuditEntry, type AuditRow } from './audit';
export {
  completeSecondFactor,
  completeSetUp,
  confirmFreshSecondFactor,
  signIn,
  WRONG_CREDENTIALS,
  type Client,
  type SignInResult,
} from './sign-in';
export { DEVICE_COOKIE, deviceCookie, pruneDevices, type RememberedDevice } from './devices';
export { pruneThrottle } from './throttle';
export { requestPasswordReset, resetKeys } from './password-reset';
export {
  acceptInvitation,
  inviteTeammate,
  listInvitations,
  readInvitation,
  withdrawInvitation,
  type Invitation,
  type InvitationLink,
} from './invitations';
export {
  acceptedStep,
  confirmEnrolment,
  disableTwoFactor,
  enrolment,
  unusedRecoveryCodes,
  RECOVERY_CODE_COUNT,
  type Enrolment,
} from './two-factor';
// One-time secrets and their stored hashes, shared with the subscriber page's links (lib/subscriptions).
