import { SkillsEditor } from "./skills-editor";

export default function SkillsPage() {
  return (
    <>
      <h1>Skills</h1>
      <p className="muted">
        The team&apos;s library of <a href="https://agentskills.io">agentskills.io</a> skills: a{" "}
        <code>SKILL.md</code> whose front matter names the skill and describes it, then the
        instructions an agent step reads before its prompt. A step&apos;s <code>skills:</code> name
        that the workflow&apos;s own files do not hold is found here. Saving a workflow copies the
        current version of each such skill into the workflow&apos;s version: a skill saved later
        changes no saved workflow until that workflow is saved again. Viewers read skills; members
        save and delete them.
      </p>
      <SkillsEditor />
    </>
  );
}
