/**
 * The teams domain's public surface (ARCHITECTURE.md): teams, membership, invitation links.
 * Code outside lib/teams/ imports from here (the module boundaries check it: `npm run boundaries`);
 * tests may reach the modules behind it.
 */
export { LINK_TOKEN_PATTERN, acceptTeamInvitation, createTeamInvitation, listTeamInvitations, newLinkToken, previewTeamInvitation, revokeTeamInvitation, siteUrl } from "./invitations";
export type { TeamInvitationPreview, TeamInvitationView } from "./invitations";
export { assertMayActForTeam, leaveTeam, listTeamRunActions, makeTeamOwner, removeTeamMember } from "./membership";
export type { TeamRunActionView } from "./membership";
export { MAX_PARTICIPANTS, claimTaskTeam, createTeam, ensurePersonalTeam, getJoinCode, joinTeam, listTaskParticipants, listTaskTeamsOf, listTeamsOf, membersOfMyTeams, pickSubmittingTeam, pickTaskTeam, setParticipantTeam, taskTeamOf } from "./teams";
export type { TaskParticipantView, TeamMemberView, TeamSummary } from "./teams";
