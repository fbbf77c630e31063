export * from "./accounts";
export * from "./sessions";
export * from "./events";
export * from "./identity";
export * from "./friendships";
export * from "./posts";
export * from "./comments";
