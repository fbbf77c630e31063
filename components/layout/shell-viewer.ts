/** What client parts of the shell get of the signed-in account (serialisable, no secrets). */
export type ShellViewer = {
  id: number;
  firstName: string;
  lastName: string;
  photo: string | null;
  isDeleted: boolean;
  role: "USER" | "MODERATOR" | "ADMIN";
};
