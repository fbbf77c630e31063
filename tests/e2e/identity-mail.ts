// Reads the links the e2e server mailed: it has no SMTP_URL, so mails are .eml files in DATA_DIR/mail.
import { mailsTo, outboxDir } from "../../lib/server/mail/mailbox";
import { e2eServerInfo, expect } from "./fixtures";

/** The newest mailed link to `pathname` (e.g. "/change-password/") among the mails to `address`, once it is there. */
export async function mailedLink(address: string, pathname: string): Promise<string> {
  const dir = outboxDir(e2eServerInfo().dataDir);
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const links = (await mailsTo(address, dir)).flatMap((mail) => mail.links);
        link = links.findLast((l) => new URL(l).pathname.startsWith(pathname));
        return link ?? null;
      },
      { message: `a mail to ${address} with a link to ${pathname}`, timeout: 15_000 },
    )
    .not.toBeNull();
  return link!;
}
