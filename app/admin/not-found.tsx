// A missing item of the admin area (a publication, a user) shows the 404 card inside the admin layout's
// <main>, beside its sidebar: without a boundary of its own the root one replaced the whole layout.
export { default, generateMetadata } from "../not-found";
