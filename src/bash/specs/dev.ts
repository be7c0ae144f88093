/**
 * Developer tools' read-only subcommands. docker, podman, kubectl, helm and gh are cobra programs
 * (pflag: long options exact, short ones clustered, persistent flags valid everywhere); npm, pnpm,
 * yarn and bun expand abbreviated options (nopt), so only exact spellings are accepted here and an
 * abbreviation asks; pip (optparse) likewise. Only the options listed are known: any other asks.
 * Subcommands not listed are not read-only.
 */
import type { CommandSpec, OptionSpec, SpecFamily } from "../spec.ts";
import { effect, flags, opt, values } from "./build.ts";

const ANY = [{ role: "plain", optional: true, repeat: true }] as const;
const NONE: CommandSpec["operands"] = [];
const HELP = flags("-h --help");
const ro = (summary: string, options: OptionSpec[] = [], more: Partial<CommandSpec> = {}): CommandSpec => ({
  summary,
  options: [...options, ...HELP],
  operands: ANY,
  ...more,
});

const CONTAINER_GLOBAL: OptionSpec[] = [
  opt("--config", {
    role: "program",
    why:
      "loads a configuration folder whose CLI plugins it runs and whose contexts may reach a daemon through ssh",
  }),
  ...values("-l --log-level"),
  opt("-c --context", {
    role: "network",
    why:
      "talks to the daemon of a context from the user's configuration, which may be remote (ssh://, tcp://)",
  }),
  opt("-H --host", { role: "network", why: "sends the query to the daemon at the address it names" }),
  ...flags("-D --debug", "--tls", "--tlsverify"),
  ...values("--tlscacert", "--tlscert", "--tlskey").map((o) => ({ ...o, role: "read" as const })),
];
const FORMAT = values("-f --format", "--filter");
const ONE: CommandSpec["operands"] = [{ role: "plain" }];
const LIST = [...flags("-q --quiet", "--no-trunc"), ...FORMAT];
const PS = [
  ...flags("-a --all", "-l --latest", "--no-trunc", "-q --quiet", "-s --size"),
  ...FORMAT,
  ...values("-n --last"),
];
const IMAGES = [...flags("-a --all", "--digests", "--no-trunc", "-q --quiet", "--tree"), ...FORMAT];
const HISTORY = [...flags("-H --human", "--no-trunc", "-q --quiet"), ...FORMAT];
const LOGS = [
  ...flags("-f --follow", "-t --timestamps", "--details"),
  ...values("--since", "--until", "-n --tail"),
];
const BUILDER = values("--builder");
const STATS = [...flags("-a --all", "--no-stream", "--no-trunc"), ...FORMAT];
/** A management command (`docker image …`): read-only only through the subcommands listed. */
const group = (summary: string, subcommands: Record<string, CommandSpec>): CommandSpec => ({
  summary,
  options: HELP,
  subcommands,
});
const containers = (name: string): CommandSpec => ({
  summary: `${name}: container engine`,
  long: "exact",
  permute: false,
  options: [...CONTAINER_GLOBAL, ...flags("-v --version"), ...HELP],
  subcommands: {
    ps: ro("list containers", PS, { operands: NONE }),
    images: ro("list images", IMAGES),
    inspect: ro("low-level object information", [...FORMAT, ...flags("-s --size"), ...values("--type")]),
    logs: ro("container logs", LOGS),
    version: ro("version", FORMAT, { operands: NONE }),
    info: ro("system information", FORMAT, { operands: NONE }),
    history: ro("image history", HISTORY),
    port: ro("port mappings"),
    top: ro("processes of a container"),
    diff: ro("files changed in a container", [], { operands: ONE }),
    stats: ro("resource usage", STATS),
    // Management commands (`docker container ls`): only their listing and reading subcommands.
    container: group("containers", {
      ls: ro("list containers", PS, { operands: NONE, aliases: ["ps", "list"] }),
      inspect: ro("container details", [...FORMAT, ...flags("-s --size")]),
      logs: ro("container logs", LOGS),
      top: ro("processes of a container"),
      port: ro("port mappings"),
      diff: ro("files changed in a container", [], { operands: ONE }),
      stats: ro("resource usage", STATS),
    }),
    image: group("images", {
      ls: ro("list images", IMAGES, { aliases: ["list"] }),
      inspect: ro("image details", FORMAT),
      history: ro("image history", HISTORY),
    }),
    ...Object.fromEntries(
      ["volume", "network", "context", "node", "service"].map((object) => [
        object,
        group(`${object}s`, {
          ls: ro(`list ${object}s`, LIST, { operands: NONE, aliases: ["list"] }),
          inspect: ro(`${object} details`, [...FORMAT, ...flags("--pretty")]),
          ...(object === "node" || object === "service" ? { ps: ro(`tasks of a ${object}`, LIST) } : {}),
          ...(object === "service" ? { logs: ro("service logs", LOGS) } : {}),
          ...(object === "context" ? { show: ro("the current context", [], { operands: NONE }) } : {}),
        }),
      ]),
    ),
    compose: {
      summary: "compose projects",
      options: [
        ...values("-f --file", "--env-file", "--project-directory").map((o) => ({
          ...o,
          role: "read" as const,
        })),
        ...values("-p --project-name", "--profile", "--ansi", "--progress"),
        ...HELP,
      ],
      subcommands: {
        ps: ro("project containers", [...PS, ...values("--status", "--services")]),
        ls: ro("list projects", LIST, { operands: NONE }),
        logs: ro("project logs", [...LOGS, ...flags("--no-color", "--no-log-prefix")]),
        images: ro("project images", LIST),
        top: ro("project processes"),
        version: ro("version", FORMAT, { operands: NONE }),
      },
    },
    buildx: {
      summary: "builders",
      options: [...BUILDER, ...HELP],
      subcommands: {
        ls: ro("list builders", FORMAT, { operands: NONE }),
        // `--builder` is buildx's persistent flag: valid after the subcommand too.
        du: ro("build cache usage", [...FORMAT, ...flags("--verbose"), ...BUILDER], { operands: NONE }),
        inspect: ro("builder details", [...flags("--bootstrap"), ...BUILDER]),
        version: ro("version", [], { operands: NONE }),
      },
    },
    ...(name === "podman"
      ? {
        machine: group("virtual machines", {
          list: ro("list machines", [...LIST, ...flags("--all-providers")], {
            operands: NONE,
            aliases: ["ls"],
          }),
          inspect: ro("machine details", FORMAT),
          info: ro("machine host information", FORMAT, { operands: NONE }),
        }),
      }
      : {}),
  },
  tests: {
    readOnly: [
      `${name} ps -a`,
      `${name} logs web --tail 100`,
      `${name} inspect -f '{{.Id}}' web`,
      `${name} container ls -a`,
      `${name} image ls --quiet`,
      `${name} volume ls`,
      `${name} network inspect net`,
      `${name} compose logs -f api`,
      `${name} compose -f config.yml ps`,
      `${name} buildx du --verbose`,
      `${name} buildx du --builder b`,
      `${name} stats --no-stream`,
      `${name} service ps api`,
      `${name} image ls -q`,
    ],
    notReadOnly: [
      `${name} run alpine`,
      `${name} rm web`,
      `${name} ps --bogus`,
      `${name} logs web > out.txt`,
      `${name} container run alpine`,
      `${name} container rm web`,
      `${name} image rm nginx`,
      `${name} image ls --bogus`,
      `${name} volume rm data`,
      `${name} network create net`,
      `${name} compose up`,
      `${name} compose -f config.yml down`,
      `${name} compose --dry-run ps`,
      `${name} buildx build .`,
      `${name} service update api`,
      `${name} container diff a b`,
      `${name} -H tcp://x.example:2375 ps`,
      `${name} -c remote ps`,
      `${name} --config ./d ps`,
      `${name} --config d --help`,
      `${name} --context=remote ps`,
      `${name} image pull alpine`,
      `${name} search nginx`,
    ],
  },
});

const KUBE_GLOBAL: OptionSpec[] = [
  ...values(
    "-n --namespace",
    "--context",
    "--cluster",
    "--user",
    "--as",
    "--as-group",
    "--as-uid",
  ),
  ...values("--request-timeout", "-v --v", "--tls-server-name", "--log-flush-frequency", "--vmodule"),
  ...flags(
    "--insecure-skip-tls-verify",
    "--match-server-version",
    "--warnings-as-errors",
    "--disable-compression",
  ),
  ...values("--certificate-authority", "--client-certificate", "--client-key").map((o) => ({
    ...o,
    role: "read" as const,
  })),
  opt("-s --server", { role: "network", why: "sends the query (and credentials) to the host it names" }),
  opt("--kubeconfig", { role: "program", why: "loads a kubeconfig, whose exec plugins run programs" }),
  opt("--token", { role: "plain" }),
  opt("--cache-dir", { role: "write" }),
];
const KUBE_OUTPUT = [
  // `-o go-template-file=F` (and jsonpath-file, custom-columns-file, templatefile) reads F.
  opt("-o --output", { role: "plain", check: "kube-output" }),
  // With a `*-file` output format (`-o go-template-file`) this names the template's file; an inline
  // template is judged as a path too, which names nothing outside unless it starts with / ~ or ..
  opt("--template", { role: "read" }),
  ...values(
    "-l --selector",
    "--field-selector",
    "--sort-by",
    "-L --label-columns",
  ),
  ...flags(
    "-A --all-namespaces",
    "-w --watch",
    "--watch-only",
    "--show-labels",
    "--no-headers",
    "--show-kind",
  ),
  ...flags("--ignore-not-found", "--show-managed-fields", "-R --recursive"),
  ...values("--chunk-size", "--subresource"),
  opt("--raw", { role: "plain", check: "kube-raw" }),
  // A directory given to -f is read whole: every .json/.yaml/.yml in it (below it with -R), its
  // secrets files included, decoded and echoed in errors. A URL is downloaded.
  opt("-f --filename", { role: "tree", check: "kube-filename" }),
  opt("-k --kustomize", {
    role: "network",
    why:
      "builds the directory's kustomization, whose remote resources kustomize fetches with git and the network",
  }),
];

/** Every kubectl query goes to the cluster the kubeconfig names, with its credentials. */
const CLUSTER: Partial<CommandSpec> = {
  effect: "service",
  effectWhy: "queries the cluster API its kubeconfig names, with the user's credentials",
};
/** kubectl's and helm's read subcommands, each a query of the cluster. */
const cluster = (summary: string, options: OptionSpec[] = [], more: Partial<CommandSpec> = {}) =>
  ro(summary, options, { ...CLUSTER, ...more });

const kubectl: CommandSpec = {
  summary: "kubectl (cobra)",
  long: "exact",
  permute: false,
  persistent: KUBE_GLOBAL,
  options: HELP,
  subcommands: {
    get: cluster("display resources", KUBE_OUTPUT, {
      operands: [{ role: "plain", repeat: true, optional: true, check: "kube-resource" }],
    }),
    describe: cluster("describe resources", [
      ...KUBE_OUTPUT,
      ...flags("--show-events"),
      ...values("--show-events"),
    ]),
    logs: cluster("container logs", [
      ...values("-c --container", "--since", "--since-time", "--tail", "-l --selector", "--max-log-requests"),
      ...values("--pod-running-timeout"),
      ...flags(
        "-f --follow",
        "-p --previous",
        "--timestamps",
        "--all-containers",
        "--prefix",
        "--ignore-errors",
      ),
      ...flags("--all-pods", "--insecure-skip-tls-verify-backend"),
    ]),
    // Even with --client, the kubectl of the Google Cloud SDK (a dispatcher) asks the server.
    version: cluster("version", [...values("-o --output"), ...flags("--client")], { operands: NONE }),
    explain: cluster("documentation of resources", [
      ...flags("--recursive"),
      ...values("--api-version", "--output"),
    ]),
    "api-resources": cluster("supported resources", [
      ...values("-o --output", "--sort-by", "--api-group", "--verbs", "--categories"),
      ...flags("--namespaced", "--no-headers", "--cached"),
    ], { operands: NONE }),
    "api-versions": cluster("supported API versions", [], { operands: NONE }),
    "cluster-info": {
      ...cluster("cluster endpoints", [], { operands: NONE }),
      subcommands: {
        dump: cluster("dump cluster state", [
          ...flags("-A --all-namespaces"),
          ...values("-o --output", "--namespaces", "--pod-running-timeout"),
          opt("--output-directory", { role: "write" }),
        ], { operands: NONE }),
      },
    },
    top: {
      summary: "resource usage",
      subcommands: {
        node: cluster("node usage", [
          ...values("-l --selector", "--sort-by"),
          ...flags("--no-headers", "--show-capacity"),
        ], {
          aliases: ["nodes", "no"],
        }),
        pod: cluster("pod usage", [
          ...values("-l --selector", "--sort-by", "--field-selector"),
          ...flags("-A --all-namespaces", "--containers", "--no-headers", "--sum"),
        ], { aliases: ["pods", "po"] }),
      },
    },
  },
  tests: {
    readOnly: [
      "kubectl version --client",
      "kubectl get --raw /api",
      "kubectl get pods -n prod -o wide",
      "kubectl -n prod get pods",
      "kubectl logs -f api-1 --tail=20",
      "kubectl describe pod x",
      "kubectl cluster-info",
      "kubectl api-resources",
      "kubectl api-versions",
      "kubectl explain pods",
      "kubectl top pod",
      "kubectl version",
      "kubectl get --raw /healthz",
      "kubectl get --raw /api/v1/namespaces/default/pods",
      "kubectl get pods -o go-template --template='{{range .items}}{{.metadata.name}}{{end}}'",
      "kubectl get pods -o jsonpath='{.items[*].metadata.name}'",
      "kubectl get pods -o go-template-file=tpl.gotmpl",
      "kubectl get -f deploy.yaml",
      "kubectl get -R -f manifests",
    ],
    notReadOnly: [
      "kubectl delete pod api",
      "kubectl apply -f x.yaml",
      "kubectl get pods --kubeconfig /tmp/k",
      "kubectl get pods -s https://x.example",
      "kubectl get secrets -o yaml",
      "kubectl get secret/db -o jsonpath={.data}",
      "kubectl get pods,Secrets -o json",
      "kubectl get secret.v1. -o yaml",
      "kubectl get --raw /api/v1/namespaces/default/secrets",
      "kubectl get --raw=/api/v1/secrets?limit=1",
      "kubectl get --raw /api/v1/namespaces/default/%73ecrets/db",
      "kubectl get -f http://x.example/x.yaml",
      "kubectl get -f=https://x.example/x.yaml",
      "kubectl describe --filename HTTPS://x.example/x.yaml",
      "kubectl get -k .",
      "kubectl get --kustomize=overlays/prod",
    ],
    paths: {
      "kubectl get pods -o go-template-file=~/.aws/credentials": ["read:~/.aws/credentials"],
      "kubectl get pods --output=jsonpath-file=.env": ["read:.env"],
      "kubectl get pods -o custom-columns-file=/etc/shadow": ["read:/etc/shadow"],
      "kubectl get pods -o TemplateFile=../t": ["read:../t"],
      "kubectl get pods --template=.env -o go-template-file": ["read:.env"],
      "kubectl get -R -f .": ["read:."],
      "kubectl describe pods -f ../other": ["read:../other"],
    },
  },
};

const GH_REPO = values("-R --repo");
/** Every gh query goes to GitHub's API (or the host its configuration names) as the logged-in user. */
const GITHUB_API: Partial<CommandSpec> = {
  effect: "service",
  effectWhy: "queries GitHub's API (or the host its configuration names) as the logged-in user",
};
const ghGroup = (actions: Record<string, OptionSpec[]>): CommandSpec => ({
  summary: "gh command group (only the listed actions read)",
  subcommands: Object.fromEntries(
    Object.entries(actions).map(([a, o]) => [a, ro(a, [...o, ...GH_REPO], GITHUB_API)]),
  ),
});
const GH_LIST = [
  ...values(
    "-L --limit",
    "-s --state",
    "-l --label",
    "-A --author",
    "-a --assignee",
    "-S --search",
    "-B --base",
  ),
  ...values("-H --head", "--json", "-q --jq", "-t --template", "-b --branch", "-u --user", "-w --workflow"),
  ...values(
    "-e --event",
    "-k --key",
    "-r --ref",
    "--order",
    "--sort",
    "--app",
    "-c --commit",
    "-m --mention",
  ),
  ...values("--milestone"),
  effect("-w --web", "program", "opens the page in a web browser"),
  ...flags("--draft", "-a --all", "--exclude-drafts", "--exclude-pre-releases"),
];
const GH_VIEW = [
  ...values("--json", "-q --jq", "-t --template", "-j --job", "-a --attempt", "-b --branch", "-r --ref"),
  effect("-w --web", "program", "opens the page in a web browser"),
  ...flags(
    "-c --comments",
    "--log",
    "--log-failed",
    "-v --verbose",
    "--exit-status",
    "-y --yaml",
  ),
  ...flags("--raw", "--watch", "--required", "--fail-fast", "--name-only", "--patch", "--color"),
  ...values("-i --interval", "--color"),
];

/**
 * Terraform reads state through the backend the workspace's files configure (any host, with the
 * user's credentials) and loads the provider plugins it downloaded (programs from the workspace).
 */
/** Every terraform run checks HashiCorp for a newer version and stamps the check in the home. */
const CHECKPOINT: Partial<CommandSpec> = {
  effect: "write",
  effectWhy: "asks HashiCorp for a newer version and writes ~/.terraform.d/checkpoint_signature",
};

const FROM_BACKEND: Partial<CommandSpec> = {
  effect: "network",
  effectWhy: "reads state from the backend the workspace configures and runs its provider plugins",
};

export const DEV: SpecFamily = {
  docker: containers("docker"),
  podman: containers("podman"),
  kubectl,
  helm: {
    summary: "helm (cobra)",
    long: "exact",
    permute: false,
    persistent: [...values("-n --namespace", "--kube-context"), ...flags("--debug"), ...HELP],
    subcommands: {
      list: cluster("releases", [
        ...flags("-a --all", "-A --all-namespaces", "-q --short"),
        ...values("-o --output", "-f --filter"),
      ], {
        aliases: ["ls"],
      }),
      status: cluster("release status", [...values("-o --output", "--revision"), ...flags("--show-desc")]),
      history: cluster("release history", values("-o --output", "--max")),
      version: ro("version", [...flags("--short"), ...values("--template")], { operands: NONE }),
      get: {
        summary: "release details",
        subcommands: Object.fromEntries(
          ["all", "hooks", "manifest", "metadata", "notes", "values"].map((
            s,
          ) => [s, cluster(s, [...values("--revision", "-o --output"), ...flags("-a --all")])]),
        ),
      },
    },
    tests: {
      readOnly: ["helm list -A", "helm get values web", "helm version --short"],
      notReadOnly: ["helm install x y", "helm uninstall web"],
    },
  },
  gh: {
    summary: "GitHub CLI (cobra)",
    long: "exact",
    permute: false,
    options: [...HELP, ...flags("--version")],
    subcommands: {
      pr: ghGroup({ list: GH_LIST, view: GH_VIEW, status: GH_VIEW, diff: GH_VIEW, checks: GH_VIEW }),
      issue: ghGroup({ list: GH_LIST, view: GH_VIEW, status: GH_VIEW }),
      repo: ghGroup({ list: GH_LIST, view: GH_VIEW }),
      run: ghGroup({ list: GH_LIST, view: GH_VIEW }),
      release: ghGroup({ list: GH_LIST, view: GH_VIEW }),
      workflow: ghGroup({ list: GH_LIST, view: GH_VIEW }),
      gist: ghGroup({ list: GH_LIST, view: GH_VIEW }),
      label: ghGroup({ list: GH_LIST }),
      cache: ghGroup({ list: GH_LIST }),
      help: ro("help"),
    },
    tests: {
      readOnly: ["gh pr list", "gh run view 1 --log", "gh help", "gh --version"],
      notReadOnly: ["gh pr merge 1", "gh api /x", "gh issue view 17 -w"],
    },
  },
  terraform: {
    summary: "terraform (Go flag: single-dash options matched whole)",
    long: "exact",
    cluster: false,
    permute: false,
    options: flags("-version --version -v", "-help --help -h"),
    ...CHECKPOINT,
    subcommands: {
      version: ro("version", flags("-json"), { operands: NONE, cluster: false, ...CHECKPOINT }),
      show: ro("state or plan", flags("-json", "-no-color"), {
        operands: [{ role: "read", optional: true }],
        cluster: false,
        ...FROM_BACKEND,
      }),
      output: ro("output values", [...flags("-json", "-raw", "-no-color"), opt("-state", { role: "read" })], {
        operands: [{ role: "plain", optional: true }],
        cluster: false,
        ...FROM_BACKEND,
      }),
      providers: ro("providers", [], { operands: NONE, cluster: false, ...FROM_BACKEND }),
    },
    tests: {
      readOnly: [],
      notReadOnly: [
        "terraform apply",
        "terraform version",
        "terraform -version",
        "terraform show -json",
        "terraform output -raw",
        "terraform providers",
      ],
    },
  },
};
