import { Avatar } from "@/components/ui/avatar";

/** A community's photo, or the first letter of its name on a colour derived from its id. */
export function CommunityAvatar({ id, name, photo, size = 48, alt = "" }: { id: number; name: string; photo: string | null; size?: number; alt?: string }) {
  return <Avatar id={id} firstName={name} lastName="" photo={photo} size={size} alt={alt} />;
}
