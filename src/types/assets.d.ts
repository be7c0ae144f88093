// Model-facing texts live in .md files beside their code; Bun imports them as strings
// (`import prompt from "./prompt.md" with { type: "text" }`) and embeds them in the binary.
declare module "*.md" {
  const text: string;
  export default text;
}

// Binary assets imported `with { type: "file" }` resolve to a path that also works inside the
// compiled binary.
declare module "*.wasm" {
  const path: string;
  export default path;
}
