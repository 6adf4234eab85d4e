/**
 * What other features use of the token metadata service: the marker of metadata an answer left out (the inventory
 * route's items carry it).
 */
export { MetadataOmitted } from "./token";
