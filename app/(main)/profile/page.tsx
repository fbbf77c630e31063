import { getDb } from "@/db/client";
import { requireViewer } from "@/components/layout/current-viewer";
import { ProfileView } from "@/components/profile/profile-view";
import { routeMetadata } from "@/lib/i18n/metadata";
import { getMyAccount } from "@/lib/server/services/accounts/get-account";
import { getProfileFriends } from "@/lib/server/services/profiles/profile-friends";

export const generateMetadata = () => routeMetadata("Profile");

export default async function ProfilePage() {
  const { viewer, summary } = await requireViewer("Profile");
  const ctx = { viewer, db: getDb(), requestId: "profile-page" };
  const [account, friends] = await Promise.all([getMyAccount({ ctx }), getProfileFriends({ ctx, input: { id: viewer.id } })]);
  return <ProfileView account={account} role={summary.role} own friends={friends} />;
}
