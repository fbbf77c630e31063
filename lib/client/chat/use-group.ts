"use client";
/**
 * A group conversation's own state beside its history (issue 41): the dialog as the server has it now
 * (title, photo, members count, the viewer's role, left, mute), read again on every DIALOG_CHANGED frame,
 * and its members (GET dialogs/{id}/members), whose names the typing line, the mentions and the
 * members panel use. A personal dialog only keeps its DTO here.
 */
import { useCallback, useEffect, useState } from "react";
import { api } from "@/lib/client/api";
import { getRealtimeClient } from "@/lib/client/socket";
import { useRealtimeEvent } from "@/lib/client/use-realtime";
import type { DialogDto, GroupMemberDto } from "@/lib/validation/dialogs";
import type { Paged } from "@/lib/validation/friends-shared";
import { CHAT_EVENT_TYPES, GROUP_MEMBERS_MAX, MEMBER_PAGE_MAX } from "@/lib/validation/dialogs-shared";
import { asDialogChanged } from "./frames";

export type MembersState = { list: GroupMemberDto[]; state: "loading" | "ready" | "error" };

/** Every member of a group, page by page (a group holds at most GROUP_MEMBERS_MAX). */
async function fetchMembers(dialogId: number): Promise<GroupMemberDto[]> {
  const all: GroupMemberDto[] = [];
  for (let page = 0; page * MEMBER_PAGE_MAX < GROUP_MEMBERS_MAX; page += 1) {
    const answer = await api<Paged<GroupMemberDto>>(`dialogs/${dialogId}/members?page=${page}&size=${MEMBER_PAGE_MAX}`);
    all.push(...answer.content);
    if (page + 1 >= answer.totalPages) break;
  }
  return all;
}

export function useGroup(initial: DialogDto) {
  const dialogId = initial.id;
  const group = initial.type === "GROUP";
  const [dialog, setDialog] = useState(initial);
  const [members, setMembers] = useState<MembersState>({ list: [], state: group ? "loading" : "ready" });

  const loadMembers = useCallback(async () => {
    if (!group) return;
    try {
      setMembers({ list: await fetchMembers(dialogId), state: "ready" });
    } catch (err) {
      console.error("loading the members failed", err);
      setMembers((prev) => ({ ...prev, state: "error" }));
    }
  }, [dialogId, group]);

  const reload = useCallback(async () => {
    try {
      const next = await api<DialogDto>(`dialogs/${dialogId}`);
      setDialog(next);
      if (!next.left) await loadMembers();
    } catch (err) {
      console.error("reading the dialog again failed", err);
    }
  }, [dialogId, loadMembers]);

  // The members of a group the viewer is in (one who left sees the history without them).
  useEffect(() => {
    if (!group || initial.left) return;
    let cancelled = false;
    fetchMembers(dialogId)
      .then((list) => !cancelled && setMembers({ list, state: "ready" }))
      .catch((err: unknown) => {
        console.error("loading the members failed", err);
        if (!cancelled) setMembers((prev) => ({ ...prev, state: "error" }));
      });
    return () => {
      cancelled = true;
    };
  }, [group, initial.left, dialogId]);

  useRealtimeEvent(CHAT_EVENT_TYPES.groupChanged, (event) => {
    const c = asDialogChanged(event.data);
    if (c && c.dialogId === dialogId) void reload();
  });

  // Back after a drop: a change may have been missed.
  useEffect(() => {
    if (!group) return;
    const client = getRealtimeClient();
    let wasOpen = client.getStatus() === "open";
    return client.onStatus((status) => {
      if (status === "open" && !wasOpen) void reload();
      wasOpen = status === "open";
    });
  }, [group, reload]);

  /** A change made here: the answer is the dialog as it is now; the members are read again when they changed. */
  const applied = useCallback(
    (next: DialogDto | null, membersChanged = false) => {
      if (next && typeof next === "object" && "membersCount" in next && next.id === dialogId) setDialog(next);
      else void reload();
      if (membersChanged) void loadMembers();
    },
    [dialogId, reload, loadMembers],
  );

  return { dialog, members, reloadMembers: loadMembers, applied };
}
