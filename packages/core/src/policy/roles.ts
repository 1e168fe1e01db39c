/**
 * A team's roles, ordered: viewer < member < admin < owner. Whatever needs a role accepts
 * any role above it.
 */
import type { Role } from "./lane-policy";

const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

/** Whether `role` ranks at least as high as `needed`. */
export const roleAtLeast = (role: Role, needed: Role) => RANK[role] >= RANK[needed];
