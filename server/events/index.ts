/** What other features use of the live events: the data an event of the change log carries (webhooks send the same). */
export { changeData } from "./feed";
