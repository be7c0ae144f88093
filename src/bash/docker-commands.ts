/**
 * docker's commands under each of their names (docker CLI 27: each command's `--help` lists its
 * "Aliases:"): `docker rm`, `docker container rm` and `docker container remove` are one command, so a
 * deny or ask rule for one holds for all. podman takes the same forms. `buildx build` is the buildx
 * plugin's build, which `docker build` runs where the plugin is installed.
 */
export const DOCKER_ALIASES: readonly (readonly string[])[] = [
  ["container attach", "attach"],
  ["container commit", "commit"],
  ["container cp", "cp"],
  ["container create", "create"],
  ["container diff", "diff"],
  ["container exec", "exec"],
  ["container export", "export"],
  ["container kill", "kill"],
  ["container logs", "logs"],
  ["container ls", "container list", "container ps", "ps"],
  ["container pause", "pause"],
  ["container port", "port"],
  ["container rename", "rename"],
  ["container restart", "restart"],
  ["container rm", "container remove", "rm"],
  ["container run", "run"],
  ["container start", "start"],
  ["container stats", "stats"],
  ["container stop", "stop"],
  ["container top", "top"],
  ["container unpause", "unpause"],
  ["container update", "update"],
  ["container wait", "wait"],
  ["image build", "build", "builder build", "buildx build"],
  ["image history", "history"],
  ["image import", "import"],
  ["image load", "load"],
  ["image ls", "image list", "images"],
  ["image pull", "pull"],
  ["image push", "push"],
  ["image rm", "image remove", "rmi"],
  ["image save", "save"],
  ["image tag", "tag"],
  ["network ls", "network list"],
  ["network rm", "network remove"],
  ["volume ls", "volume list"],
  ["volume rm", "volume remove"],
  ["system events", "events"],
  ["system info", "info"],
  ["plugin ls", "plugin list"],
  ["plugin rm", "plugin remove"],
  ["context ls", "context list"],
  ["context rm", "context remove"],
];

const SPELLINGS = DOCKER_ALIASES.map((group) => group.map((name) => name.split(" ")));

/** `docker ...` under every other name of its command (`docker container remove x` is `docker rm x`). */
export function dockerCommandTexts(words: readonly string[]): string[] {
  if (words[0] !== "docker" && words[0] !== "podman") return [];
  const texts: string[] = [];
  for (const group of SPELLINGS) {
    const given = group.find((spelling) => spelling.every((w, i) => words[i + 1] === w));
    if (!given) continue;
    const rest = words.slice(1 + given.length);
    for (const other of group) if (other !== given) texts.push([words[0], ...other, ...rest].join(" "));
  }
  return texts;
}
