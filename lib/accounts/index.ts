/**
 * The accounts domain's public surface (ARCHITECTURE.md): users, passwords, API tokens, e-mail confirmation and change, password reset, site roles, mail.
 * Code outside lib/accounts/ imports from here (the module boundaries check it: `npm run boundaries`);
 * tests may reach the modules behind it.
 */
export { INVALID_EMAIL_CHANGE_LINK, confirmEmailChange, createOwnApiToken, deleteAccount, describeEmailChange, requestEmailChange, revokeOwnApiToken, signOutEverywhere, soleOrganizedTasks } from "./account";
export type { SoleOrganizedTask } from "./account";
export { authenticateBearer, createApiToken, listApiTokens } from "./api-tokens";
export type { ApiTokenInfo } from "./api-tokens";
export { INVALID_CONFIRMATION_LINK, InvalidConfirmationLinkError, confirmEmailAddress, describeEmailConfirmation, emailConfirmationState, resendEmailConfirmation } from "./email-confirmation";
export { sendMail } from "./mail";
export { INVALID_RESET_LINK, InvalidResetLinkError, createPasswordResetLink, isPasswordResetTokenUsable, requestPasswordReset, resetPassword } from "./password-reset";
export { emailSchema, fieldErrors } from "./schemas";
export { A_SITE_ROLE, SITE_ROLES, SITE_ROLE_DESCRIPTIONS, SITE_ROLE_LABELS, SITE_ROLE_NAMES, listSiteAccounts, parseSiteAccountsQuery, parseSiteRole, setSiteRole, setSiteRoleByEmail } from "./site-roles";
export type { SiteAccountsPage, SiteAccountsQueryInput } from "./site-roles";
export { EmailTakenError, SIGN_UP_ANSWER_MIN_MS, UserInputError, changePassword, createUser, getSessionUser, getUserByEmail, getUserById, revokeSessions, signUp, verifyCredentials } from "./users";
export type { PublicUser, SignedInUser, UserRole } from "./users";
