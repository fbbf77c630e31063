import { requireViewer } from "@/components/layout/current-viewer";
import { ShareChooser } from "@/components/share/share-chooser";
import { routeMetadata } from "@/lib/i18n/metadata";
import { shareErrorOf } from "@/lib/validation/share";
import { withClientMessages } from "@/components/layout/client-messages";

export const generateMetadata = () => routeMetadata("Share");

/**
 * /share: what the phone's share sheet brought (issue 44, docs/adr/0179). The service worker kept it on
 * the device (or refused it, `?error=`); the chooser reads it there and offers a post or a conversation.
 */
async function SharePage({ searchParams }: { searchParams: Promise<{ error?: string | string[] }> }) {
  const { summary, viewer } = await requireViewer("Share");
  if (viewer.isDeleted) return null;
  const raw = (await searchParams).error;
  const error = shareErrorOf(typeof raw === "string" ? raw : null);
  return <ShareChooser viewer={{ id: summary.id, firstName: summary.firstName, lastName: summary.lastName, photo: summary.photo }} error={error} />;
}

export default withClientMessages("(main)/share/page", SharePage);
