import { requireViewer } from "@/components/layout/current-viewer";
import { ProfileView } from "@/components/layout/profile-view";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("Profile");

export default async function ProfilePage() {
  const { summary } = await requireViewer("Profile");
  return <ProfileView account={summary} own />;
}
