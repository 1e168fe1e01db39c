/**
 * A python3 program (its pty module) that runs a command at a pseudo-terminal and plays a
 * script: each step waits for its text in the output (ANSI escapes left out), then types
 * its keys. It prints the whole output and exits with the command's exit status.
 * `python3 -c PTY_DRIVER '<script as JSON>' <argv...>`.
 */
export const PTY_DRIVER = String.raw`
import json, os, pty, re, select, sys, time
script = json.loads(sys.argv[1]); argv = sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
out = b""
def text():
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.decode("utf-8", "replace"))
def pump(timeout):
    global out
    r, _, _ = select.select([fd], [], [], timeout)
    if not r: return True
    try: chunk = os.read(fd, 4096)
    except OSError: return False
    if not chunk: return False
    out += chunk; return True
seen = 0
for expect, keys in script:
    deadline = time.time() + 60
    while text().find(expect, seen) < 0:
        if time.time() > deadline or not pump(0.5):
            sys.stdout.write(text()); sys.stdout.write("\n[driver] did not see: " + expect + "\n"); sys.exit(99)
    seen = text().find(expect, seen) + len(expect)
    os.write(fd, keys.encode())
while pump(60): pass
_, status = os.waitpid(pid, 0)
sys.stdout.write(text())
sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 98)
`;
