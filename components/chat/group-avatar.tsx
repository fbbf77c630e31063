import type { CSSProperties } from "react";
import { Avatar, initialsOf } from "@/components/ui/avatar";
import type { MemberCard } from "@/lib/validation/dialogs";
import styles from "./group.module.css";

// The avatar's hues (components/ui/avatar.tsx), so a member's tile in the collage has their colour.
const HUES = ["#3b6bbf", "#3f7d52", "#9c5233", "#7048b0", "#2f7480", "#a8425f", "#5f6e23", "#4c5a96"];

/**
 * A group's picture (issue 41): its photo, or a round collage of up to four members' photos (their
 * initials on their colour when they have none), as VK's list shows a conversation without a photo.
 */
export function GroupAvatar({ photo, collage, title, size }: { photo: string | null; collage: MemberCard[]; title: string; size: number }) {
  if (photo) {
    return (
      <span className={styles.groupPhoto} style={{ width: size, height: size }}>
        {/* A stored image of any size, as the avatar does. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src={photo} alt="" width={size} height={size} />
      </span>
    );
  }
  const tiles = collage.slice(0, 4);
  if (tiles.length <= 1) {
    const one = tiles[0];
    return one ? (
      <Avatar id={one.id} firstName={one.firstName} lastName={one.lastName} photo={one.photo} size={size} alt="" />
    ) : (
      <Avatar id={0} firstName={title} lastName="" photo={null} size={size} alt="" />
    );
  }
  return (
    <span className={styles.collage} data-tiles={tiles.length} style={{ width: size, height: size, fontSize: Math.round(size * 0.22) } as CSSProperties} data-testid="group-collage">
      {tiles.map((m) => (
        <span key={m.id} className={styles.tile} style={{ "--tile-bg": HUES[m.id % HUES.length] } as CSSProperties}>
          {m.photo ? (
            // eslint-disable-next-line @next/next/no-img-element
            <img src={m.photo} alt="" />
          ) : (
            <span aria-hidden="true">{initialsOf(m.firstName, m.lastName).charAt(0)}</span>
          )}
        </span>
      ))}
    </span>
  );
}
