import { TemplatesEditor } from "./templates-editor";

export default function TemplatesPage() {
  return (
    <>
      <h1>Step templates</h1>
      <p className="muted">
        Reusable steps a workflow names with <code>use_template</code>, in AWF&apos;s template form
        (name, parameters, one state). Saving a workflow copies the current version of each template
        it uses into the workflow&apos;s version: a template saved later changes no saved workflow
        until that workflow is saved again. Viewers read templates; members save and delete them.
      </p>
      <TemplatesEditor />
    </>
  );
}
