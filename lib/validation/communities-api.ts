// The reference of communities/* (issue 42). Requests: lib/validation/communities.ts; answers: strict
// objects shaped like CommunityDto and CommunityMemberDto.
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { id, isoTime, pageOf, registerOperation } from "./api-common";
import {
  COMMUNITY_ROLES,
  COMMUNITY_TYPES,
  COMMUNITY_WALLS,
  MEMBERSHIPS,
  communityFeedInput,
  communityIdParams,
  communityListQuery,
  communityMemberListQuery,
  communityMemberParams,
  communityNotificationsInput,
  createCommunityInput,
  inviteInput,
  updateCommunityInput,
  updateMemberInput,
} from "./communities";

const role = z.enum(COMMUNITY_ROLES);

export const communityDto = z
  .strictObject({
    id,
    name: z.string(),
    description: z.string(),
    photo: z.string().nullable(),
    cover: z.string().nullable(),
    type: z.enum(COMMUNITY_TYPES).meta({ description: "OPEN: anyone signed in reads it; CLOSED: members read it, others see this card and ask to join; PRIVATE: members only, 404 to anyone else." }),
    wall: z.enum(COMMUNITY_WALLS).meta({ description: "Who posts on its wall: ADMINS (a public page) or MEMBERS." }),
    membersCount: z.number().int(),
    role: role.nullable().meta({ description: "The caller's role when a member." }),
    membership: z.enum(MEMBERSHIPS).meta({ description: "The caller's standing: MEMBER, REQUESTED, INVITED, BANNED or NONE." }),
    canRead: z.boolean().meta({ description: "The caller may read its wall and members." }),
    canPost: z.boolean().meta({ description: "The caller may post on its wall." }),
    notifyPosts: z.boolean().meta({ description: "A member's choice: a notification of each new post on its wall." }),
    inFeed: z.boolean().meta({ description: "A member's choice: its posts come into the caller's news feed." }),
    createdAt: isoTime,
    deletedAt: isoTime.nullable().meta({ description: "Deleted by its owner (only the owner sees a deleted community)." }),
    restoreUntil: isoTime.nullable().meta({ description: "Until when the owner may restore it." }),
  })
  .meta({
    id: "Community",
    example: {
      id: 7, name: "Шахматный клуб «Ладья»", description: "Турниры по субботам", photo: null, cover: null, type: "OPEN", wall: "MEMBERS",
      membersCount: 128, role: null, membership: "NONE", canRead: true, canPost: false, notifyPosts: false, inFeed: false, createdAt: "2026-11-20T18:00:00.000Z", deletedAt: null, restoreUntil: null,
    },
  });

export const communityMemberDto = z
  .strictObject({
    id,
    firstName: z.string(),
    lastName: z.string(),
    photo: z.string().nullable(),
    role: role.nullable().meta({ description: "A member's role; null for the other statuses." }),
    status: z.enum(["MEMBER", "REQUESTED", "INVITED", "BANNED"]),
    since: isoTime.meta({ description: "When they joined, asked, were invited or banned." }),
    isFriend: z.boolean().meta({ description: "A friend of the caller (friends come first)." }),
  })
  .meta({ id: "CommunityMember" });

const C = "A community the caller may not see (absent, deleted, blocked by the staff, or private to them) → 404.";

export function registerCommunitiesApi(r: OpenAPIRegistry): void {
  const t = "Сообщества";
  registerOperation(r, {
    method: "get", path: "/api/v1/communities", tag: t, access: "user", query: communityListQuery,
    summary: "Find communities, or a person's",
    description: "query: communities whose name holds the text (at least 3 letters; fewer → an empty page), biggest first; private ones only to their members. memberId: that person's communities — another person's open ones (when their page is open to the caller), one's own all of them, or with membership=INVITED|REQUESTED one's invitations or requests. Neither: the caller's own.",
    ok: { 200: { description: "A page of communities.", schema: pageOf(communityDto, "CommunityPage") } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/communities", tag: t, access: "user", body: createCommunityInput, rateLimited: true,
    bodyExample: { name: "Шахматный клуб «Ладья»", description: "Турниры по субботам", type: "OPEN", wall: "MEMBERS" },
    summary: "Create a community", description: "The caller becomes its owner and first member. photo and cover: images the caller uploaded. RATE_LIMIT_COMMUNITY_CREATE.",
    ok: { 201: { description: "The new community.", schema: communityDto } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/communities/{id}", tag: t, access: "user", params: communityIdParams,
    summary: "A community", description: `A closed one shows its card to everyone; its wall and members only to members (canRead). ${C}`,
    ok: { 200: { description: "The community.", schema: communityDto } },
  });
  registerOperation(r, {
    method: "patch", path: "/api/v1/communities/{id}", tag: t, access: "user", params: communityIdParams, body: updateCommunityInput, rateLimited: true,
    bodyExample: { description: "Турниры по субботам и воскресеньям" },
    summary: "Edit a community", description: `Its owner or an admin (others → 403): name, description, type, wall, photo and cover (null removes them). ${C} RATE_LIMIT_COMMUNITY_CHANGE.`,
    ok: { 200: { description: "The community.", schema: communityDto } },
  });
  registerOperation(r, {
    method: "delete", path: "/api/v1/communities/{id}", tag: t, access: "user", params: communityIdParams, rateLimited: true,
    summary: "Delete a community", description: `Its owner only (others → 403). It disappears for everyone; the owner may restore it within the restore window that deleted accounts have. ${C} RATE_LIMIT_COMMUNITY_CHANGE.`,
    ok: { 200: { description: "The deleted community, as its owner sees it.", schema: communityDto } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/communities/{id}/restore", tag: t, access: "user", params: communityIdParams, rateLimited: true, errors: [409],
    summary: "Restore a deleted community", description: "Its owner, within the restore window (after it → 404). Not deleted → 409. RATE_LIMIT_COMMUNITY_CHANGE.",
    ok: { 200: { description: "The community.", schema: communityDto } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/communities/{id}/members", tag: t, access: "user", params: communityIdParams, rateLimited: true, errors: [409],
    summary: "Join, ask to join, or accept an invitation",
    description: `OPEN: the caller joins. CLOSED: the caller's request waits for an admin (membership REQUESTED). Invited (any type): the caller joins. Already a member or already asked → 409; banned → 403; a private community without an invitation → 404. RATE_LIMIT_COMMUNITY_JOIN.`,
    ok: { 200: { description: "The community as the caller now sees it.", schema: communityDto } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/communities/{id}/members", tag: t, access: "user", params: communityIdParams, query: communityMemberListQuery,
    summary: "Members, requests, invitations or bans",
    description: `status=MEMBER (default): whoever may read the community (canRead; others → 403), the caller's friends first, then by when they joined. REQUESTED, INVITED, BANNED: its owner and admins only. People in a block with the caller are left out. ${C}`,
    ok: { 200: { description: "A page of people.", schema: pageOf(communityMemberDto, "CommunityMemberPage") } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/communities/{id}/members/{accountId}", tag: t, access: "user", params: communityMemberParams, body: updateMemberInput, rateLimited: true, errors: [409],
    bodyExample: { status: "MEMBER" },
    summary: "Accept, ban, or give a role",
    description: `status=MEMBER accepts a request; status=BANNED bans someone (a member below the caller, or anyone not in the community): they cannot join or ask again until unbanned — both the owner or an admin. role (the owner only): ADMIN, MODERATOR or MEMBER for a member, or OWNER to hand the community on (the caller becomes an admin). ${C} RATE_LIMIT_COMMUNITY_CHANGE.`,
    ok: { 200: { description: "The person's row now.", schema: communityMemberDto } },
  });
  registerOperation(r, {
    method: "delete", path: "/api/v1/communities/{id}/members/{accountId}", tag: t, access: "user", params: communityMemberParams, rateLimited: true,
    summary: "Leave, or remove someone",
    description: `Oneself: leave (the owner hands the community on first → 403), take back a request, or decline an invitation. Someone else (the owner or an admin): remove a member below the caller, refuse a request, withdraw an invitation, or lift a ban. ${C} RATE_LIMIT_COMMUNITY_CHANGE.`,
    ok: { 200: { description: "The community as the caller now sees it.", schema: communityDto } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/communities/{id}/feed", tag: t, access: "user", params: communityIdParams, body: communityFeedInput, rateLimited: true,
    bodyExample: { inFeed: false },
    summary: "Keep a community's posts in my feed, or not",
    description: `A member's switch (others → 403): with inFeed false the community's posts leave the caller's news feed without leaving the community; true brings them back. ${C} RATE_LIMIT_COMMUNITY_CHANGE.`,
    ok: { 200: { description: "The community.", schema: communityDto } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/communities/{id}/notifications", tag: t, access: "user", params: communityIdParams, body: communityNotificationsInput, rateLimited: true,
    bodyExample: { posts: true },
    summary: "Be notified of a community's new posts, or not",
    description: `A member's switch (others → 403), off when they join: with posts true each new post on its wall, published at once, comes as a COMMUNITY_POST notification (while its switch in notifications/settings is on); false stops them. ${C} RATE_LIMIT_COMMUNITY_CHANGE.`,
    ok: { 200: { description: "The community.", schema: communityDto } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/communities/{id}/invitations", tag: t, access: "user", params: communityIdParams, body: inviteInput, rateLimited: true, errors: [409],
    bodyExample: { accountId: 43 },
    summary: "Invite a friend",
    description: `A member invites a friend (in a private community, the owner or an admin does); anyone else → 403, a block → 403. Already a member or invited → 409, banned → 403. An admin's invitation of someone who asked accepts them. ${C} RATE_LIMIT_COMMUNITY_INVITE.`,
    ok: { 201: { description: "The invited person's row.", schema: communityMemberDto } },
  });
}
