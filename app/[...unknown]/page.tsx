import { redirect } from "next/navigation";

// Spec section 2: any unknown path leads to the news page (which sends a signed-out visitor to login).
export default function UnknownPage(): never {
  redirect("/");
}
