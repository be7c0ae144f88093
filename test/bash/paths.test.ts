import { describe, expect, test } from "bun:test";
import { type Access, extractPaths, PATH_COMMANDS } from "../../src/bash/paths.ts";

const r = (path: string): Access => ({ path, access: "read" });
const w = (path: string): Access => ({ path, access: "write" });

/** Per command: arguments and the exact accesses expected (options with values are not paths). */
const CASES: Record<string, [string[], Access[]][]> = {
  cat: [[["-n", "a", "--", "-b"], [r("a"), r("-b")]]],
  head: [[["-n", "5", "a"], [r("a")]], [["-n5", "a"], [r("a")]]],
  tail: [[["-f", "-n", "20", "log"], [r("log")]]],
  less: [[["+G", "a"], [r("a")]]],
  more: [[["a"], [r("a")]]],
  wc: [[["-l", "a", "b"], [r("a"), r("b")]]],
  stat: [[["-c", "%s", "a"], [r("a")]]],
  file: [[["-m", "magic", "a"], [r("magic"), r("a")]]],
  ls: [[["-la", "--ignore", "x", "src"], [r("src")]]],
  tree: [[["-L", "2", "-o", "out.txt", "src"], [w("out.txt"), r("src")]]],
  du: [[["-d", "1", "src"], [r("src")]]],
  diff: [[["-U", "3", "a", "b"], [r("a"), r("b")]]],
  cmp: [[["a", "b"], [r("a"), r("b")]]],
  comm: [[["-12", "a", "b"], [r("a"), r("b")]]],
  nl: [[["-b", "a", "f"], [r("f")]]],
  od: [[["-t", "x1", "f"], [r("f")]]],
  strings: [[["-n", "8", "f"], [r("f")]]],
  cut: [[["-d", ",", "-f", "1", "f"], [r("f")]]],
  sort: [[["-k", "2", "-o", "out", "in"], [w("out"), r("in")]]],
  uniq: [[["-c", "in", "out"], [r("in"), w("out")]]],
  xxd: [[["in", "out"], [r("in"), w("out")]]],
  base64: [[["-d", "-o", "out", "in"], [w("out"), r("in")]]],
  md5sum: [[["a"], [r("a")]]],
  sha1sum: [[["a"], [r("a")]]],
  sha256sum: [[["a"], [r("a")]]],
  sha512sum: [[["a"], [r("a")]]],
  readlink: [[["-f", "a"], [r("a")]]],
  realpath: [[["a"], [r("a")]]],
  grep: [[["-rn", "TODO", "src"], [r("src")]], [["-e", "a", "-f", "pats", "x"], [r("pats"), r("x")]]],
  egrep: [[["a|b", "f"], [r("f")]]],
  fgrep: [[["--", "-x", "f"], [r("f")]]],
  rg: [[["-g", "*.ts", "TODO", "src"], [r("src")]], [["--files", "src"], [r("src")]]],
  find: [[["src", "lib", "-name", "*.ts"], [r("src"), r("lib")]], [["-L", "x", "-delete"], [w("x")]], [
    ["-fprint", "out"],
    [r("."), w("out")],
  ]],
  sed: [[["-n", "1p", "a"], [r("a")]], [["-i", "s/a/b/", "a"], [w("a")]], [["-f", "s.sed", "a"], [
    r("s.sed"),
    r("a"),
  ]]],
  awk: [[["-F", ",", "{print $1}", "a", "v=1"], [r("a")]], [["-f", "p.awk", "a"], [r("p.awk"), r("a")]]],
  gawk: [[["{print}", "a"], [r("a")]]],
  jq: [[[".x", "a.json"], [r("a.json")]], [["--rawfile", "k", "secret", ".", "a"], [r("secret"), r("a")]]],
  cd: [[["src"], [r("src")]], [[], [r("~")]], [["My", "Dir"], [r("My Dir")]]],
  pushd: [[["src"], [r("src")]]],
  rm: [[["-rf", "build", "--", "-x"], [w("build"), w("-x")]]],
  rmdir: [[["a"], [w("a")]]],
  mkdir: [[["-p", "-m", "755", "a/b"], [w("a/b")]]],
  touch: [[["-r", "ref", "a"], [r("ref"), w("a")]]],
  tee: [[["-a", "log"], [w("log")]]],
  truncate: [[["-s", "0", "log"], [w("log")]]],
  shred: [[["-n", "3", "f"], [w("f")]]],
  cp: [[["-r", "a", "b", "dest"], [r("a"), r("b"), w("dest")]], [["-t", "dir", "a"], [w("dir"), r("a")]]],
  ln: [[["-s", "target", "link"], [r("target"), w("link")]]],
  install: [[["-m", "755", "a", "/usr/local/bin/a"], [r("a"), w("/usr/local/bin/a")]]],
  mv: [[["a", "b"], [w("a"), w("b")]]],
  rsync: [
    [["-a", "-e", "ssh", "src/", "dest"], [r("src/"), w("dest")]],
    [["-a", "--remove-source-files", "src/", "dest"], [w("src/"), w("dest")]],
    [["-a", "--remove-sent", "src/", "dest"], [w("src/"), w("dest")]],
  ],
  chmod: [[["-R", "755", "a"], [w("a")]], [["--reference=ref", "a"], [r("ref"), w("a")]]],
  chown: [[["me:me", "a"], [w("a")]]],
  chgrp: [[["staff", "a"], [w("a")]]],
  zip: [
    [["-r", "a.zip", "src"], [w("a.zip"), r("src")]],
    [["-qrm", "a.zip", "src"], [w("a.zip"), w("src")]],
    [["--move", "-b", "tmp", "a.zip", "src"], [w("a.zip"), w("src")]],
  ],
  "7z": [
    [["a", "a.7z", "src"], [w("a.7z"), r("src")]],
    [["a", "-sdel", "a.7z", "src"], [w("a.7z"), w("src")]],
    [["x", "-oout", "a.7z"], [r("a.7z"), w("out")]],
    [["l", "a.7z"], [r("a.7z")]],
  ],
  "7za": [[["u", "-sdel", "a.7z", "src"], [w("a.7z"), w("src")]]],
  "7zr": [[["e", "a.7z"], [r("a.7z"), w(".")]]],
  unzip: [[["a.zip", "-d", "out"], [r("a.zip"), w("out")]], [["-l", "a.zip"], [r("a.zip")]]],
  tar: [[["czf", "a.tgz", "src"], [w("a.tgz"), r("src")]], [["-xf", "a.tar", "-C", "out"], [
    r("a.tar"),
    w("out"),
  ]], [
    ["-tf", "a.tar"],
    [r("a.tar")],
  ]],
  dd: [[["if=/dev/zero", "of=out", "bs=1M"], [r("/dev/zero"), w("out")]]],
  curl: [
    [["-o", "out", "https://x"], [w("out")]],
    [["-T", "up", "https://x"], [r("up")]],
    [["-d", "@~/.ssh/id_rsa", "https://x"], [r("~/.ssh/id_rsa")]],
    [["-F", "f=@.env;type=text/plain", "--data-urlencode", "k@a.txt", "-d", "a=b", "https://x"], [
      r(".env"),
      r("a.txt"),
    ]],
  ],
  wget: [[["-O", "out", "https://x"], [w("out")]], [["--post-file=.env", "https://x"], [r(".env")]]],
  scp: [[["-P", "22", "~/.ssh/id_rsa", "host:"], [r("~/.ssh/id_rsa"), w("host:")]]],
};

describe("path extraction", () => {
  test("every path command has a test case, and there are at least 36", () => {
    expect(PATH_COMMANDS.length).toBeGreaterThanOrEqual(36);
    expect(PATH_COMMANDS.filter((name) => !(name in CASES))).toEqual([]);
  });
  for (const [name, cases] of Object.entries(CASES)) {
    test(name, () => {
      for (const [args, expected] of cases) {
        expect(extractPaths(name, args), `${name} ${args.join(" ")}`).toEqual(expected);
      }
    });
  }
  test("commands without an extractor touch no known paths", () => {
    expect(extractPaths("npm", ["install"])).toEqual([]);
  });
});
