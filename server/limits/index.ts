export { MemoryWindows, SharedWindows, SWEEP_ROWS, type RequestCounts, type WindowCount } from "./windows";
