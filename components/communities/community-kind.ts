import type { CommunityDto } from "@/lib/validation/communities-shared";

/** The key of a community's kind under communities.kind: a public page is an open one only admins write in. */
export function kindKey(community: Pick<CommunityDto, "type" | "wall">): "PAGE" | CommunityDto["type"] {
  return community.type === "OPEN" && community.wall === "ADMINS" ? "PAGE" : community.type;
}

/** Roles by strength: a lower number is stronger. */
export const ROLE_RANK = { OWNER: 0, ADMIN: 1, MODERATOR: 2, MEMBER: 3 } as const;

export function isAdminRole(role: CommunityDto["role"]): boolean {
  return role === "OWNER" || role === "ADMIN";
}
