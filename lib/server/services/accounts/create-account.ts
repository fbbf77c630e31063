import "server-only";
import { z } from "zod";
import { accounts } from "@/db/schema";
import { hashPassword } from "@/lib/server/auth/password";
import { emailSchema } from "@/lib/validation/auth";
import { nameSchema } from "@/lib/validation/name";
import { accountNameLatin } from "@/lib/server/search/name-latin";
import { withTransaction, type ServiceCtx } from "../context";

const createAccountInput = z.object({
  email: emailSchema,
  password: z.string().min(8).max(128),
  firstName: nameSchema,
  lastName: nameSchema,
  language: z.enum(["ru", "en"]).default("ru"),
});

/** Stores a new account with a hashed password; registration adds captcha and consent on top. */
export async function createAccount({ ctx, input }: { ctx: ServiceCtx; input: z.input<typeof createAccountInput> }) {
  const data = createAccountInput.parse(input);
  const passwordHash = await hashPassword(data.password);
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx
      .insert(accounts)
      .values({ ...data, email: data.email, passwordHash, nameLatin: accountNameLatin(data.firstName, data.lastName) })
      .returning({ id: accounts.id, email: accounts.email });
    return row;
  });
}
