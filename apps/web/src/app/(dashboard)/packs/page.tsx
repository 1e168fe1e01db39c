import { PacksPanel } from "./packs-panel";

export default function PacksPage() {
  return (
    <>
      <h1>Workflow packs</h1>
      <p className="muted">
        AWF workflow packs installed for the team: each of a pack&apos;s workflows becomes the
        team&apos;s workflow <code>&lt;pack&gt;/&lt;workflow&gt;</code>, read-only, with the
        pack&apos;s prompts and scripts in its bundle. Installing a pack again makes a new version
        of the pack and of each of its workflows; runs keep the version they started with. Viewers
        read packs; members install, update and remove them.
      </p>
      <PacksPanel />
    </>
  );
}
