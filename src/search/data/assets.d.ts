// Generated data files imported `with { type: "text" }` and embedded in the binary.
declare module "*.txt" {
  const text: string;
  export default text;
}
