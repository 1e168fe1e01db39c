/**
 * How large a workflow bundle may be, and the check that validating and saving both apply
 * before anything else, and again once the templates and skills it uses are pinned into it
 * (they are stored with it): at most 50 files, 1 MiB each, 5 MiB in all, relative paths only.
 */
import { AppError } from "@switchyard/core/errors";

export const BUNDLE_LIMITS = { files: 50, fileBytes: 1024 * 1024, totalBytes: 5 * 1024 * 1024 };

/** `pinned`: the files are the bundle with its templates and skills pinned, as stored. */
export const checkBundleLimits = (files: Record<string, string>, pinned = false) => {
  const paths = Object.keys(files);
  const withTemplates = pinned ? " with the templates and skills it uses (pinned into it)" : "";
  if (paths.length > BUNDLE_LIMITS.files)
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      pinned
        ? `the bundle holds ${paths.length} files${withTemplates}; a bundle holds at most ${BUNDLE_LIMITS.files} files`
        : `a bundle holds at most ${BUNDLE_LIMITS.files} files`,
    );
  let total = 0;
  for (const p of paths) {
    if (
      p === "" ||
      p.startsWith("/") ||
      p.split("/").some((seg) => seg === ".." || seg === "." || seg === "") ||
      p.includes("\\") ||
      p.includes("\0")
    ) {
      throw new AppError(
        "USER.INPUT.VALIDATION_FAILED",
        `bundle path "${p}" must be relative, without "." or ".." segments`,
        { location: { file: p } },
      );
    }
    const size = Buffer.byteLength(files[p]!);
    if (size > BUNDLE_LIMITS.fileBytes)
      throw new AppError("USER.INPUT.VALIDATION_FAILED", `${p} is larger than 1 MiB`, {
        location: { file: p },
      });
    total += size;
  }
  if (total > BUNDLE_LIMITS.totalBytes)
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `the bundle is larger than 5 MiB${withTemplates}`,
    );
};
