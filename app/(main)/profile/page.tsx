import { getDb } from "@/db/client";
import { requireViewer } from "@/components/layout/current-viewer";
import { ProfileView } from "@/components/profile/profile-view";
import { routeMetadata } from "@/lib/i18n/metadata";
import { getMyAccount } from "@/lib/server/services/accounts/get-account";
import { listPosts } from "@/lib/server/services/posts/list-posts";
import { getProfileFriends } from "@/lib/server/services/profiles/profile-friends";
import { WALL_PAGE_SIZE } from "@/lib/validation/post";
import { requestLocale } from "@/lib/i18n/request";
import { withClientMessages } from "@/components/layout/client-messages";

export const generateMetadata = () => routeMetadata("Profile");

async function ProfilePage() {
  const { viewer, summary } = await requireViewer("Profile");
  // A deleted viewer sees the deleted-account screen from the layout; this page renders nothing (its services refuse them).
  if (viewer.isDeleted) return null;
  const ctx = { viewer, db: getDb(), requestId: "profile-page", locale: await requestLocale() };
  const [account, friends, wall] = await Promise.all([
    getMyAccount({ ctx }),
    getProfileFriends({ ctx, input: { id: viewer.id } }),
    listPosts({ ctx, input: { accountIds: String(viewer.id), page: "0", size: String(WALL_PAGE_SIZE) } }),
  ]);
  const me = { id: summary.id, firstName: summary.firstName, lastName: summary.lastName, photo: summary.photo };
  return <ProfileView account={account} role={summary.role} own friends={friends} wall={wall} viewer={me} />;
}

export default withClientMessages("(main)/profile/page", ProfilePage);
