// `npm run account:create -- --email a@b.c --password '…' --first Anna --last Ivanova [--role ADMIN] [--language en]`
// Creates an account directly (no captcha): the operator's way to make the first administrator.
// Prints the account as JSON. Uses DATABASE_URL, else the embedded database of DATA_DIR.
import "./lib/runtime"; // first: the Node.js check, telemetry off (docs/adr/0160)
import { parseArgs } from "node:util";
import { isRole, openAccountMaker } from "./lib/account-maker";

async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      password: { type: "string" },
      first: { type: "string" },
      last: { type: "string" },
      role: { type: "string", default: "USER" },
      language: { type: "string", default: "ru" },
    },
  });
  if (!values.email || !values.password || !values.first || !values.last) {
    throw new Error("usage: --email --password --first --last [--role USER|MODERATOR|ADMIN] [--language ru|en]");
  }
  const role = values.role;
  if (!isRole(role)) throw new Error("--role must be USER, MODERATOR or ADMIN");
  const maker = await openAccountMaker();
  try {
    const account = await maker.make({
      email: values.email,
      password: values.password,
      firstName: values.first,
      lastName: values.last,
      role,
      language: values.language as "ru" | "en",
    });
    console.log(JSON.stringify(account));
  } finally {
    await maker.close();
  }
}

main().catch((err: unknown) => {
  console.error(`account:create failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
