/**
 * The nested-shell check: values in the code of a second shell or interpreter are refused
 * at their line and column; values that stay data, or reach the inner shell escaped or as
 * a variable it expands itself, are accepted.
 */
import { describe, expect, it } from "vitest";
import type { Expr } from "./expression";
import { checkShellText, lineColumn } from "./template";

const numericInputs = new Set(["n", "count"]);
const numeric = (e: Expr) =>
  e.t === "path" && e.parts[0] === "inputs" && numericInputs.has(e.parts[1]!);
const where = (text: string) =>
  checkShellText(text, { numeric, numericVariables: new Set(["SY_INPUTS_N"]) }).map((f) => {
    const { line, column } = lineColumn(text, f.at);
    return `${line}:${column}`;
  });
const messages = (text: string) => checkShellText(text, { numeric }).map((f) => f.message);

describe("accepted: the value stays data, or reaches the inner shell safely", () => {
  it.each([
    "echo {{.inputs.msg}}",
    `echo "x {{.inputs.msg}}" 'y {{.inputs.msg}}' $'z {{.inputs.msg}}'`,
    `sh -c 'echo "$SY_INPUTS_MSG"'`,
    `sh -c 'echo "$1"' sh {{.inputs.msg}}`,
    `bash -o pipefail -c 'printf "%s" "$1" | wc -c' bash {{.inputs.msg}}`,
    `bash -c "printf '%s' {{escape .inputs.msg}}"`,
    `sh -c 'echo '{{escape .inputs.msg}}`,
    `sh -c 'echo {{shellQuote .inputs.msg}} done'`,
    `sh -c 'sh -c "echo "{{escape (escape .inputs.msg)}}'`,
    `eval "echo {{escape .inputs.msg}}"`,
    `ssh host 'echo {{escape .inputs.msg}}'`,
    `ssh user@{{.inputs.host}} uptime`,
    `ssh -- {{.inputs.host}} uptime`,
    `python3 -c 'import os; print(os.environ["SY_INPUTS_MSG"])'`,
    `python3 -c 'import sys; print(sys.argv[1])' {{.inputs.msg}}`,
    `python3 -m json.tool {{.inputs.msg}}`,
    "python3 tool.py --name {{.inputs.msg}}",
    `node -e 'console.log(process.env.SY_INPUTS_MSG)'`,
    `perl -e 'print $ENV{SY_INPUTS_MSG}'`,
    `awk -v v={{.inputs.msg}} '{ print v }' notes.txt`,
    "awk -f prog.awk {{.inputs.msg}}",
    `sed -n 's/a/b/p' {{.inputs.msg}}`,
    `find . -name {{.inputs.msg}} -exec sh -c 'echo "$1"' sh {} \\;`,
    `env FOO={{.inputs.msg}} sh -c 'echo "$FOO"'`,
    `docker exec -i box sh -c 'echo "$1"' sh {{.inputs.msg}}`,
    `timeout 5 sudo -u bob bash -c 'echo "$1"' bash {{.inputs.msg}}`,
    "printf '%s\\n' {{.inputs.msg}} | xargs -n1 echo",
    "echo {{.inputs.msg}} | grep -c x",
    "cat <<EOF\n{{.inputs.msg}}\nEOF",
    "bash <<'EOF'\necho {{.inputs.msg}}\nEOF",
    `x="$(echo {{.inputs.msg}})"; echo "$x" | tr a b`,
    `n={{.inputs.n}}; echo $(( n * 2 )) $(( {{.inputs.count}} + 1 ))`,
    `sh -c "echo {{.inputs.n}}"`,
    `[[ {{.inputs.n}} -eq 1 ]] && [[ {{.inputs.msg}} == a* ]]`,
    `# sh -c '{{.inputs.msg}}' is only a comment\necho ok`,
    "echo sh -c {{.inputs.msg}}",
    `git -c user.name={{.inputs.msg}} commit -m {{.inputs.msg}}`,
    `GIT_SSH_COMMAND="ssh -i "{{escape .inputs.key}} git fetch`,
    "scp ./{{.inputs.msg}} host:/tmp/",
    "case {{.inputs.msg}} in a) sh -c 'echo \"$1\"' sh {{.inputs.msg}};; esac",
    'for f in {{.inputs.msg}}; do echo "$f"; done',
    'f() { echo "$1"; }\nf {{.inputs.msg}}',
  ])("%s", (text) => {
    expect(messages(text)).toEqual([]);
  });
});

describe("refused: the value would be parsed as code again", () => {
  it.each([
    [`sh -c 'echo {{.inputs.msg}}'`, ["1:13"]],
    [`bash -c "echo {{.inputs.msg}}"`, ["1:15"]],
    ["bash -ec {{.inputs.msg}}", ["1:10"]],
    [`sh -c "echo $SY_INPUTS_MSG"`, ["1:13"]],
    [`eval "echo {{.inputs.msg}}"`, ["1:12"]],
    ["eval {{.inputs.msg}}", ["1:6"]],
    [`ssh host "echo {{.inputs.msg}}"`, ["1:16"]],
    ["ssh host echo {{.inputs.msg}}", ["1:15"]],
    ["ssh -o ProxyCommand={{.inputs.msg}} host", ["1:21"]],
    ["ssh {{.inputs.host}} uptime", ["1:5"]],
    [`su -c "echo {{.inputs.msg}}" bob`, ["1:13"]],
    [`docker exec box sh -c "echo {{.inputs.msg}}"`, ["1:29"]],
    [`timeout 5 sudo -u bob bash -lc "echo {{.inputs.msg}}"`, ["1:38"]],
    [`env X=1 sh -c "echo {{.inputs.msg}}"`, ["1:21"]],
    [`find . -exec sh -c "echo {{.inputs.msg}}" \\;`, ["1:26"]],
    [`xargs sh -c 'echo {{.inputs.msg}}'`, ["1:19"]],
    ["printf '%s' {{.inputs.msg}} | xargs -I{} sh -c 'echo {}'", ["1:13"]],
    [`python3 -c "print('{{.inputs.msg}}')"`, ["1:20"]],
    [`python3 -c "print({{escape .inputs.msg}})"`, ["1:19"]],
    ["python3 {{.inputs.msg}}", ["1:9"]],
    [`node -e "console.log('{{.inputs.msg}}')"`, ["1:23"]],
    [`perl -ne 'print "{{.inputs.msg}}"' f`, ["1:18"]],
    [`awk "BEGIN { print \\"{{.inputs.msg}}\\" }"`, ["1:22"]],
    [`sed "s/x/{{.inputs.msg}}/" notes.txt`, ["1:10"]],
    [`watch "echo {{.inputs.msg}}"`, ["1:13"]],
    ["watch -n 1 echo {{.inputs.msg}}", ["1:17"]],
    [`trap "echo {{.inputs.msg}}" EXIT`, ["1:12"]],
    [`env -S "echo {{.inputs.msg}}"`, ["1:14"]],
    ["echo {{.inputs.msg}} | sh", ["1:6"]],
    [`echo "{{.inputs.msg}}" | bash -s`, ["1:7"]],
    ["{ echo {{.inputs.msg}}; } | sh", ["1:8"]],
    ["sh <<EOF\necho {{.inputs.msg}}\nEOF", ["2:6"]],
    ["cat <<EOF | sh\necho {{.inputs.msg}}\nEOF", ["2:6"]],
    [`python3 <<'EOF'\nprint("{{.inputs.msg}}")\nEOF`, ["2:8"]],
    [`bash <<< "echo {{.inputs.msg}}"`, ["1:16"]],
    [`v={{.inputs.msg}}; sh -c "echo $v"`, ["1:32"]],
    [`v={{.inputs.msg}}\neval "$v"`, ["2:7"]],
    ['echo {{.inputs.msg}} | while read -r l; do eval "$l"; done', ["1:50"]],
    [`bash -c "$(echo {{.inputs.msg}})"`, ["1:17"]],
    [`sh -c 'eval "$1"' sh {{.inputs.msg}}`, ["1:7"]],
    [`sh -c 'sh -c "echo $1"' sh {{.inputs.msg}}`, ["1:7"]],
    [`sh -c "echo \\"{{escape .inputs.msg}}\\""`, ["1:15"]],
    [`sh -c 'sh -c "echo {{escape .inputs.msg}}"'`, ["1:20"]],
    [`sh -c 'echo $'{{escape .inputs.msg}}`, ["1:15"]],
    [`sh -c 'echo ok # {{escape .inputs.msg}}'`, ["1:18"]],
    ["echo $(( {{.inputs.msg}} + 1 ))", ["1:10"]],
    [`n={{.inputs.msg}}; [[ $n -eq 1 ]]`, ["1:23"]],
    [`let "x = {{.inputs.msg}}"`, ["1:10"]],
    ["declare -i n={{.inputs.msg}}", ["1:14"]],
    ["scp {{.inputs.msg}} host:/tmp/", ["1:5"]],
    [`rsync -a -e "ssh -i {{.inputs.key}}" src/ host:dst/`, ["1:21"]],
    ["make CFLAGS={{.inputs.msg}}", ["1:13"]],
    [`GIT_SSH_COMMAND="ssh -i {{.inputs.key}}" git fetch`, ["1:25"]],
    [`git -c core.sshCommand={{.inputs.key}} fetch`, ["1:24"]],
    [`echo start\nif true; then\n  bash -c "echo {{.inputs.msg}}"\nfi`, ["3:17"]],
    [`sh -c 'echo "{{.inputs.msg}}`, ["1:7"]],
  ])("%s", (text, expected) => {
    expect(where(text)).toEqual(expected);
  });

  it("explains the danger and names the variable, the argument form and escape", () => {
    const [message] = messages(`sh -c 'echo {{.inputs.msg}}'`);
    expect(message).toContain(`{{.inputs.msg}} is pasted into the code that "sh -c" runs`);
    expect(message).toContain(`sh -c 'echo "$SY_INPUTS_MSG"'`);
    expect(message).toContain(`sh -c 'echo "$1"' sh {{.inputs.msg}}`);
    expect(message).toContain("{{escape .inputs.msg}}");
    const [python] = messages(`python3 -c "print('{{.inputs.msg}}')"`);
    expect(python).toContain('os.environ["SY_INPUTS_MSG"]');
  });
});
