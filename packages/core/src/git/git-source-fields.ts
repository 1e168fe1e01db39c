/**
 * The fields of a linked git repository that reach git's command line: a branch and a folder
 * are checked here so neither can be read as an option or leave the repository.
 */
import { AppError } from "../errors";

const REF = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/;

/** A branch name git accepts and no option: letters, digits, `._/-`, no `..`, `//` or `.lock`. */
export const checkGitRef = (branch: string) => {
  if (!REF.test(branch) || /\.\.|\/\/|\/$|\.lock$|@\{/.test(branch))
    throw new AppError("USER.GIT.INVALID_SOURCE", `"${branch}" is not a branch name`, {
      location: { path: "branch" },
    });
  return branch;
};

/** A folder inside the repository, without leading or trailing slashes ("" for the root). */
export const checkGitFolder = (folder: string) => {
  const trimmed = folder.trim().replace(/^\/+|\/+$/g, "");
  if (trimmed === "" || trimmed === ".") return "";
  const parts = trimmed.split("/");
  if (
    trimmed.length > 300 ||
    parts.some((p) => p === "" || p === "." || p === ".." || !/^[A-Za-z0-9._ -]+$/.test(p))
  )
    throw new AppError(
      "USER.GIT.INVALID_SOURCE",
      `"${folder}" is not a folder of the repository (letters, digits, ._- and spaces, separated by /)`,
      { location: { path: "folder" } },
    );
  return trimmed;
};
