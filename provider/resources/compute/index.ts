export * from "./resource";
