/**
 * `use_template` for `switchyard run` and `validate`: templates are AWF's local ones, the
 * `.awf/templates/<name>.yaml` files in the workflow's folder, read through the folder's
 * guards (no symlink, FIFO or oversized file).
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { TEMPLATE_DIR, templateNameOf, type TemplateLibrary } from "@switchyard/core/workflow";
import type { WorkflowFolder } from "./workflow-folder";

export const folderTemplates = (folder: WorkflowFolder): TemplateLibrary => {
  let names: string[] | undefined;
  return {
    find: (name) => {
      for (const file of [`${TEMPLATE_DIR}/${name}.yaml`, `${TEMPLATE_DIR}/${name}.yml`]) {
        const source = folder.read(file);
        if (source !== undefined) return { name, source, file };
      }
      return undefined;
    },
    names: () => {
      if (!names) {
        try {
          names = readdirSync(path.join(folder.dir, TEMPLATE_DIR)).flatMap((f) => {
            const n = templateNameOf(`${TEMPLATE_DIR}/${f}`);
            return n ? [n] : [];
          });
        } catch {
          names = [];
        }
      }
      return names;
    },
  };
};
