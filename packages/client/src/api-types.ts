/**
 * The Switchyard REST API's types, generated from openapi.json by openapi-typescript.
 * Do not edit: run `npm run generate -w @switchyard/client` after changing a route.
 */
export type paths = {
    "/agents/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent CLI versions a replay can run: the pinned one and the newest installed */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Versions per CLI */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agents: {
                                agent: string;
                                /** @description the newest installed with --latest, when there is one */
                                latest: string | null;
                                /** @description the version scripts/agents.json pins */
                                pinned: string;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Admins: the team's audit log, newest first, a page at a time: who changed what, on what, when, and the request that did it */
        get: {
            parameters: {
                query?: {
                    action?: string;
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of entries and the cursor of the next */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entries: {
                                /** @description e.g. lane.create, connector.credential.set */
                                action: string;
                                /** @description null when the user is gone */
                                actor: {
                                    email: string;
                                    id: string;
                                    name: string;
                                } | null;
                                actorToken: string | null;
                                actorUserId: string | null;
                                /** @description ISO 8601 */
                                createdAt: string;
                                id: string;
                                /** @description the entry's facts: names, lanes, kinds, fingerprints; never a value */
                                metadata: unknown;
                                /** @description the request that made the change (its x-request-id); null outside a request */
                                requestId: string | null;
                                targetId: string | null;
                                targetType: string;
                            }[];
                            /** @description pass as cursor for the next page; null on the last */
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/budgets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's budget limits (workflow, lane, team; per UTC day or month), each with what its current period has spent */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Every limit, the team's first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            budgets: {
                                calls: {
                                    [key: string]: number;
                                };
                                cost_usd: number | null;
                                id: string;
                                /** @enum {string} */
                                period: "day" | "month";
                                /** @description ISO 8601: when the current period began (UTC) */
                                periodStart: string;
                                /** @enum {string} */
                                scope: "workflow" | "lane" | "team";
                                /** @description what the limit's current period has spent */
                                spent: {
                                    /** @description calls per tool name */
                                    calls: {
                                        [key: string]: number;
                                    };
                                    costUsd: number;
                                    tokens: number;
                                };
                                target: string;
                                /** @description the workflow's or lane's name; empty for the team */
                                targetName: string;
                                tokens: number | null;
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Admins: set a limit of model cost (USD), tokens and calls per tool pattern on a workflow, a lane or the team, per day or month; the tightest limit that applies stops a step */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        calls?: {
                            [key: string]: number;
                        };
                        cost_usd?: number;
                        /**
                         * @description the UTC period the limit counts over
                         * @enum {string}
                         */
                        period: "day" | "month";
                        /**
                         * @description where the limit is set
                         * @enum {string}
                         */
                        scope: "workflow" | "lane" | "team";
                        /**
                         * @description the workflow's id (scope workflow) or the lane's name (scope lane); empty for the team
                         * @default
                         */
                        target?: string;
                        tokens?: number;
                    };
                };
            };
            responses: {
                /** @description The limit as stored, with its period's spend */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            calls: {
                                [key: string]: number;
                            };
                            cost_usd: number | null;
                            id: string;
                            /** @enum {string} */
                            period: "day" | "month";
                            /** @description ISO 8601: when the current period began (UTC) */
                            periodStart: string;
                            /** @enum {string} */
                            scope: "workflow" | "lane" | "team";
                            /** @description what the limit's current period has spent */
                            spent: {
                                /** @description calls per tool name */
                                calls: {
                                    [key: string]: number;
                                };
                                costUsd: number;
                                tokens: number;
                            };
                            target: string;
                            /** @description the workflow's or lane's name; empty for the team */
                            targetName: string;
                            tokens: number | null;
                            updatedAt: string;
                        };
                    };
                };
                /** @description USER.BUDGET.INVALID: the limit names no amount, or an unknown workflow or lane */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/budgets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Admins: remove a budget limit */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/compare": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Compare two step attempts (?a=&b=; without a, b's replay run against the attempt it replays): the tool-call sequences lined up with the first divergence, argument and result differences, the answer's line diff, tokens, cost and duration */
        get: {
            parameters: {
                query: {
                    a?: string;
                    b: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The comparison */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            a: {
                                agentVersion: string | null;
                                costUsd: number | null;
                                durationMs: number | null;
                                id: string;
                                inputTokens: number | null;
                                model: string | null;
                                outputTokens: number | null;
                                provider: string | null;
                                runId: string;
                                stateName: string;
                                status: string;
                            };
                            answer: {
                                a: string;
                                b: string;
                                lines: {
                                    /** @enum {string} */
                                    kind: "add" | "del" | "context" | "hunk";
                                    newLine?: number;
                                    oldLine?: number;
                                    text: string;
                                }[];
                            };
                            b: {
                                agentVersion: string | null;
                                costUsd: number | null;
                                durationMs: number | null;
                                id: string;
                                inputTokens: number | null;
                                model: string | null;
                                outputTokens: number | null;
                                provider: string | null;
                                runId: string;
                                stateName: string;
                                status: string;
                            };
                            /** @description the two sequences lined up: equal calls side by side, the rest paired in order */
                            calls: {
                                a: {
                                    arguments: unknown;
                                    isError: boolean;
                                    /** @description its place in its own attempt's sequence, from 0 */
                                    position: number;
                                    /** @description in a replay: recorded, live or unmatched */
                                    replay: string | null;
                                    result: unknown;
                                    tool: string;
                                } | null;
                                arguments: {
                                    a?: unknown;
                                    b?: unknown;
                                    /** @enum {string} */
                                    kind: "changed" | "removed" | "added";
                                    /** @description where the values differ: $ is the value, $.a[0] a part of it */
                                    path: string;
                                }[];
                                b: {
                                    arguments: unknown;
                                    isError: boolean;
                                    /** @description its place in its own attempt's sequence, from 0 */
                                    position: number;
                                    /** @description in a replay: recorded, live or unmatched */
                                    replay: string | null;
                                    result: unknown;
                                    tool: string;
                                } | null;
                                result: {
                                    a?: unknown;
                                    b?: unknown;
                                    /** @enum {string} */
                                    kind: "changed" | "removed" | "added";
                                    /** @description where the values differ: $ is the value, $.a[0] a part of it */
                                    path: string;
                                }[];
                                /** @description same tool and same arguments (RFC 8785 canonical JSON) */
                                sameCall: boolean;
                                sameResult: boolean;
                            }[];
                            costUsd: {
                                a: number | null;
                                b: number | null;
                                /** @description b minus a; null when either is unknown */
                                delta: number | null;
                            };
                            durationMs: {
                                a: number | null;
                                b: number | null;
                                /** @description b minus a; null when either is unknown */
                                delta: number | null;
                            };
                            /** @description the row of calls where the sequences first part; null when they do not */
                            firstDivergence: number | null;
                            inputTokens: {
                                a: number | null;
                                b: number | null;
                                /** @description b minus a; null when either is unknown */
                                delta: number | null;
                            };
                            /** @description the same tool-call sequence and the same answer */
                            match: boolean;
                            outputTokens: {
                                a: number | null;
                                b: number | null;
                                /** @description b minus a; null when either is unknown */
                                delta: number | null;
                            };
                            sameAnswer: boolean;
                            sameSequence: boolean;
                        };
                    };
                };
                /** @description a unset and b is not the attempt of a replay (USER.REPLAY.NOT_A_REPLAY) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connectors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's connectors: the curated catalog merged with the team's own, each with its credentials' status (never a value) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Connectors */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            connectors: {
                                /**
                                 * @description whether an admin set the client secret of the connector's registered OAuth client (never the secret)
                                 * @enum {string}
                                 */
                                clientSecret: "set" | "not_set";
                                curatedAuth: string[];
                                /** @description the connector's definition as written: id, name, transport (stdio: command, args, env, credential_env, network; http: url, auth (none, bearer, oauth, client_credentials), oauth_client_id, oauth_client_auth, headers), lanes, credential_mode, initial_tools, tool_allow, enabled */
                                definition: {
                                    [key: string]: unknown;
                                };
                                docsUrl: string | null;
                                id: string;
                                /** @description how many members connected their own account */
                                memberCredentials: number;
                                /** @description how many of those must be connected again */
                                memberCredentialsToReconnect: number;
                                /** @description your own account's credential (credential_mode member) */
                                myCredential: {
                                    expiresAt: string | null;
                                    /** @description the first 12 hex digits of the value's SHA-256; never the value */
                                    fingerprint: string;
                                    /** @description api_key or oauth */
                                    kind: string;
                                    lastUsedAt: string | null;
                                    /** @description with needs_reconnect: refresh_refused (the OAuth grant expired or was revoked) or destination_changed (the connector's URL, command, arguments, environment or headers changed since it was connected, or its authorization server is not the one its credential was set for) */
                                    reconnectReason: ("refresh_refused" | "destination_changed") | null;
                                    /** @description with needs_more_access: the scope the next connection asks for (what was granted plus what the server asked for) */
                                    requiredScope: string | null;
                                    /** @description ISO 8601 */
                                    setAt: string;
                                    /** @description the user id of whoever set it */
                                    setBy: string | null;
                                    /**
                                     * @description needs_more_access: its server refused a call for want of a wider OAuth scope (requiredScope); connecting again asks for it
                                     * @enum {string}
                                     */
                                    status: "active" | "needs_reconnect" | "needs_more_access";
                                } | null;
                                /** @description whether runs need a credential to reach it */
                                needsCredential: boolean;
                                /**
                                 * @description curated: a catalog entry the team has not set up
                                 * @enum {string}
                                 */
                                source: "team" | "curated";
                                /** @description the team's credential (credential_mode team) */
                                teamCredential: {
                                    expiresAt: string | null;
                                    /** @description the first 12 hex digits of the value's SHA-256; never the value */
                                    fingerprint: string;
                                    /** @description api_key or oauth */
                                    kind: string;
                                    lastUsedAt: string | null;
                                    /** @description with needs_reconnect: refresh_refused (the OAuth grant expired or was revoked) or destination_changed (the connector's URL, command, arguments, environment or headers changed since it was connected, or its authorization server is not the one its credential was set for) */
                                    reconnectReason: ("refresh_refused" | "destination_changed") | null;
                                    /** @description with needs_more_access: the scope the next connection asks for (what was granted plus what the server asked for) */
                                    requiredScope: string | null;
                                    /** @description ISO 8601 */
                                    setAt: string;
                                    /** @description the user id of whoever set it */
                                    setBy: string | null;
                                    /**
                                     * @description needs_more_access: its server refused a call for want of a wider OAuth scope (requiredScope); connecting again asks for it
                                     * @enum {string}
                                     */
                                    status: "active" | "needs_reconnect" | "needs_more_access";
                                } | null;
                                updatedAt: string | null;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Admins: add a team-authored connector (stdio or http), checked whole; a value that looks like a secret is refused */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the connector's definition as written: id, name, transport (stdio: command, args, env, credential_env, network; http: url, auth (none, bearer, oauth, client_credentials), oauth_client_id, oauth_client_auth, headers), lanes, credential_mode, initial_tools, tool_allow, enabled */
                        definition: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description The connector as stored */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description whether an admin set the client secret of the connector's registered OAuth client (never the secret)
                             * @enum {string}
                             */
                            clientSecret: "set" | "not_set";
                            curatedAuth: string[];
                            /** @description the connector's definition as written: id, name, transport (stdio: command, args, env, credential_env, network; http: url, auth (none, bearer, oauth, client_credentials), oauth_client_id, oauth_client_auth, headers), lanes, credential_mode, initial_tools, tool_allow, enabled */
                            definition: {
                                [key: string]: unknown;
                            };
                            docsUrl: string | null;
                            id: string;
                            /** @description how many members connected their own account */
                            memberCredentials: number;
                            /** @description how many of those must be connected again */
                            memberCredentialsToReconnect: number;
                            /** @description your own account's credential (credential_mode member) */
                            myCredential: {
                                expiresAt: string | null;
                                /** @description the first 12 hex digits of the value's SHA-256; never the value */
                                fingerprint: string;
                                /** @description api_key or oauth */
                                kind: string;
                                lastUsedAt: string | null;
                                /** @description with needs_reconnect: refresh_refused (the OAuth grant expired or was revoked) or destination_changed (the connector's URL, command, arguments, environment or headers changed since it was connected, or its authorization server is not the one its credential was set for) */
                                reconnectReason: ("refresh_refused" | "destination_changed") | null;
                                /** @description with needs_more_access: the scope the next connection asks for (what was granted plus what the server asked for) */
                                requiredScope: string | null;
                                /** @description ISO 8601 */
                                setAt: string;
                                /** @description the user id of whoever set it */
                                setBy: string | null;
                                /**
                                 * @description needs_more_access: its server refused a call for want of a wider OAuth scope (requiredScope); connecting again asks for it
                                 * @enum {string}
                                 */
                                status: "active" | "needs_reconnect" | "needs_more_access";
                            } | null;
                            /** @description whether runs need a credential to reach it */
                            needsCredential: boolean;
                            /**
                             * @description curated: a catalog entry the team has not set up
                             * @enum {string}
                             */
                            source: "team" | "curated";
                            /** @description the team's credential (credential_mode team) */
                            teamCredential: {
                                expiresAt: string | null;
                                /** @description the first 12 hex digits of the value's SHA-256; never the value */
                                fingerprint: string;
                                /** @description api_key or oauth */
                                kind: string;
                                lastUsedAt: string | null;
                                /** @description with needs_reconnect: refresh_refused (the OAuth grant expired or was revoked) or destination_changed (the connector's URL, command, arguments, environment or headers changed since it was connected, or its authorization server is not the one its credential was set for) */
                                reconnectReason: ("refresh_refused" | "destination_changed") | null;
                                /** @description with needs_more_access: the scope the next connection asks for (what was granted plus what the server asked for) */
                                requiredScope: string | null;
                                /** @description ISO 8601 */
                                setAt: string;
                                /** @description the user id of whoever set it */
                                setBy: string | null;
                                /**
                                 * @description needs_more_access: its server refused a call for want of a wider OAuth scope (requiredScope); connecting again asks for it
                                 * @enum {string}
                                 */
                                status: "active" | "needs_reconnect" | "needs_more_access";
                            } | null;
                            updatedAt: string | null;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The id is a curated connector's (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connectors/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Admins: replace a connector's definition (enable, disable, lanes, tool rules go this way) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the connector's definition as written: id, name, transport (stdio: command, args, env, credential_env, network; http: url, auth (none, bearer, oauth, client_credentials), oauth_client_id, oauth_client_auth, headers), lanes, credential_mode, initial_tools, tool_allow, enabled */
                        definition: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description The connector as stored */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description whether an admin set the client secret of the connector's registered OAuth client (never the secret)
                             * @enum {string}
                             */
                            clientSecret: "set" | "not_set";
                            curatedAuth: string[];
                            /** @description the connector's definition as written: id, name, transport (stdio: command, args, env, credential_env, network; http: url, auth (none, bearer, oauth, client_credentials), oauth_client_id, oauth_client_auth, headers), lanes, credential_mode, initial_tools, tool_allow, enabled */
                            definition: {
                                [key: string]: unknown;
                            };
                            docsUrl: string | null;
                            id: string;
                            /** @description how many members connected their own account */
                            memberCredentials: number;
                            /** @description how many of those must be connected again */
                            memberCredentialsToReconnect: number;
                            /** @description your own account's credential (credential_mode member) */
                            myCredential: {
                                expiresAt: string | null;
                                /** @description the first 12 hex digits of the value's SHA-256; never the value */
                                fingerprint: string;
                                /** @description api_key or oauth */
                                kind: string;
                                lastUsedAt: string | null;
                                /** @description with needs_reconnect: refresh_refused (the OAuth grant expired or was revoked) or destination_changed (the connector's URL, command, arguments, environment or headers changed since it was connected, or its authorization server is not the one its credential was set for) */
                                reconnectReason: ("refresh_refused" | "destination_changed") | null;
                                /** @description with needs_more_access: the scope the next connection asks for (what was granted plus what the server asked for) */
                                requiredScope: string | null;
                                /** @description ISO 8601 */
                                setAt: string;
                                /** @description the user id of whoever set it */
                                setBy: string | null;
                                /**
                                 * @description needs_more_access: its server refused a call for want of a wider OAuth scope (requiredScope); connecting again asks for it
                                 * @enum {string}
                                 */
                                status: "active" | "needs_reconnect" | "needs_more_access";
                            } | null;
                            /** @description whether runs need a credential to reach it */
                            needsCredential: boolean;
                            /**
                             * @description curated: a catalog entry the team has not set up
                             * @enum {string}
                             */
                            source: "team" | "curated";
                            /** @description the team's credential (credential_mode team) */
                            teamCredential: {
                                expiresAt: string | null;
                                /** @description the first 12 hex digits of the value's SHA-256; never the value */
                                fingerprint: string;
                                /** @description api_key or oauth */
                                kind: string;
                                lastUsedAt: string | null;
                                /** @description with needs_reconnect: refresh_refused (the OAuth grant expired or was revoked) or destination_changed (the connector's URL, command, arguments, environment or headers changed since it was connected, or its authorization server is not the one its credential was set for) */
                                reconnectReason: ("refresh_refused" | "destination_changed") | null;
                                /** @description with needs_more_access: the scope the next connection asks for (what was granted plus what the server asked for) */
                                requiredScope: string | null;
                                /** @description ISO 8601 */
                                setAt: string;
                                /** @description the user id of whoever set it */
                                setBy: string | null;
                                /**
                                 * @description needs_more_access: its server refused a call for want of a wider OAuth scope (requiredScope); connecting again asks for it
                                 * @enum {string}
                                 */
                                status: "active" | "needs_reconnect" | "needs_more_access";
                            } | null;
                            updatedAt: string | null;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        /** Admins: remove a connector and every credential of it */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connectors/{id}/call": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Admins: call one tool of a connector by hand, through a worker, and see its result */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default {} */
                        arguments?: {
                            [key: string]: unknown;
                        };
                        /** @description the lane the call is made as, whose tool rules apply (default operator) */
                        lane?: string;
                        /** @description the server's own tool name */
                        tool: string;
                    };
                };
            };
            responses: {
                /** @description The tool's result, scrubbed of the credential */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: {
                                [key: string]: unknown;
                            }[];
                            durationMs: number;
                            isError: boolean;
                            structuredContent: {
                                [key: string]: unknown;
                            } | null;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connectors/{id}/client-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Admins: set (or clear, with null) the client secret of an OAuth connector's registered client, sent at the token endpoint; never returned */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description write-only: the client secret of the OAuth client named by oauth_client_id; null clears it */
                        secret: string | null;
                    };
                };
            };
            responses: {
                /** @description Whether a client secret is set */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description whether an admin set the client secret of the connector's registered OAuth client (never the secret)
                             * @enum {string}
                             */
                            clientSecret: "set" | "not_set";
                            id: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connectors/{id}/credential": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a connector's credential, write-only: the team's (admins), or your own account's where each member uses theirs */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        expiresAt?: string | null;
                        /**
                         * @description team: the team's account (admins); member: your own account
                         * @enum {string}
                         */
                        scope: "team" | "member";
                        /** @description write-only: an API key or token; for auth client_credentials the client secret, or the PEM private key (RS256 or ES256) with oauth_client_auth private_key_jwt */
                        value: string;
                    };
                };
            };
            responses: {
                /** @description What anyone may see of the credential */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            expiresAt: string | null;
                            /** @description the first 12 hex digits of the value's SHA-256; never the value */
                            fingerprint: string;
                            /** @description api_key or oauth */
                            kind: string;
                            lastUsedAt: string | null;
                            /** @description with needs_reconnect: refresh_refused (the OAuth grant expired or was revoked) or destination_changed (the connector's URL, command, arguments, environment or headers changed since it was connected, or its authorization server is not the one its credential was set for) */
                            reconnectReason: ("refresh_refused" | "destination_changed") | null;
                            /** @description with needs_more_access: the scope the next connection asks for (what was granted plus what the server asked for) */
                            requiredScope: string | null;
                            /** @description ISO 8601 */
                            setAt: string;
                            /** @description the user id of whoever set it */
                            setBy: string | null;
                            /**
                             * @description needs_more_access: its server refused a call for want of a wider OAuth scope (requiredScope); connecting again asks for it
                             * @enum {string}
                             */
                            status: "active" | "needs_reconnect" | "needs_more_access";
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        /** Revoke a connector's credential: the team's (admins), your own, or (admins) a member's */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description admins: revoke this member's own account instead of yours */
                        memberId?: string;
                        /**
                         * @description team: the team's account (admins); member: your own account
                         * @enum {string}
                         */
                        scope: "team" | "member";
                    };
                };
            };
            responses: {
                /** @description Revoked */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            /**
                             * @description team: the team's account (admins); member: your own account
                             * @enum {string}
                             */
                            scope: "team" | "member";
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connectors/{id}/oauth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Begin connecting an http connector over OAuth, the team's account (admins) or your own where each member uses theirs: open authorizationUrl in the browser where you are signed in to the dashboard; its callback stores the grant */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description team: the team's account (admins); member: your own account
                         * @enum {string}
                         */
                        scope: "team" | "member";
                    };
                };
            };
            responses: {
                /** @description Where to authorize, within ten minutes */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description where to send the browser of the user connecting; the callback completes in that user's signed-in session */
                            authorizationUrl: string;
                            /** @description ISO 8601 */
                            expiresAt: string;
                            /** @description the callback the authorization server sends the browser back to (register it where a vendor needs it) */
                            redirectUri: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connectors/{id}/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Admins: set up a curated connector for the team with its choices (auth, lanes, rules) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description auth, oauth_client_id, lanes, credential_mode, initial_tools, tool_allow, enabled (default on)
                         * @default {}
                         */
                        choice?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description The connector as stored */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description whether an admin set the client secret of the connector's registered OAuth client (never the secret)
                             * @enum {string}
                             */
                            clientSecret: "set" | "not_set";
                            curatedAuth: string[];
                            /** @description the connector's definition as written: id, name, transport (stdio: command, args, env, credential_env, network; http: url, auth (none, bearer, oauth, client_credentials), oauth_client_id, oauth_client_auth, headers), lanes, credential_mode, initial_tools, tool_allow, enabled */
                            definition: {
                                [key: string]: unknown;
                            };
                            docsUrl: string | null;
                            id: string;
                            /** @description how many members connected their own account */
                            memberCredentials: number;
                            /** @description how many of those must be connected again */
                            memberCredentialsToReconnect: number;
                            /** @description your own account's credential (credential_mode member) */
                            myCredential: {
                                expiresAt: string | null;
                                /** @description the first 12 hex digits of the value's SHA-256; never the value */
                                fingerprint: string;
                                /** @description api_key or oauth */
                                kind: string;
                                lastUsedAt: string | null;
                                /** @description with needs_reconnect: refresh_refused (the OAuth grant expired or was revoked) or destination_changed (the connector's URL, command, arguments, environment or headers changed since it was connected, or its authorization server is not the one its credential was set for) */
                                reconnectReason: ("refresh_refused" | "destination_changed") | null;
                                /** @description with needs_more_access: the scope the next connection asks for (what was granted plus what the server asked for) */
                                requiredScope: string | null;
                                /** @description ISO 8601 */
                                setAt: string;
                                /** @description the user id of whoever set it */
                                setBy: string | null;
                                /**
                                 * @description needs_more_access: its server refused a call for want of a wider OAuth scope (requiredScope); connecting again asks for it
                                 * @enum {string}
                                 */
                                status: "active" | "needs_reconnect" | "needs_more_access";
                            } | null;
                            /** @description whether runs need a credential to reach it */
                            needsCredential: boolean;
                            /**
                             * @description curated: a catalog entry the team has not set up
                             * @enum {string}
                             */
                            source: "team" | "curated";
                            /** @description the team's credential (credential_mode team) */
                            teamCredential: {
                                expiresAt: string | null;
                                /** @description the first 12 hex digits of the value's SHA-256; never the value */
                                fingerprint: string;
                                /** @description api_key or oauth */
                                kind: string;
                                lastUsedAt: string | null;
                                /** @description with needs_reconnect: refresh_refused (the OAuth grant expired or was revoked) or destination_changed (the connector's URL, command, arguments, environment or headers changed since it was connected, or its authorization server is not the one its credential was set for) */
                                reconnectReason: ("refresh_refused" | "destination_changed") | null;
                                /** @description with needs_more_access: the scope the next connection asks for (what was granted plus what the server asked for) */
                                requiredScope: string | null;
                                /** @description ISO 8601 */
                                setAt: string;
                                /** @description the user id of whoever set it */
                                setBy: string | null;
                                /**
                                 * @description needs_more_access: its server refused a call for want of a wider OAuth scope (requiredScope); connecting again asks for it
                                 * @enum {string}
                                 */
                                status: "active" | "needs_reconnect" | "needs_more_access";
                            } | null;
                            updatedAt: string | null;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/git-sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's linked git repositories, with their last sync per file */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Git repositories */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sources: {
                                branch: string;
                                /** @description ISO 8601 */
                                createdAt: string;
                                folder: string;
                                hasToken: boolean;
                                id: string;
                                lastCommit: string | null;
                                lastError: string | null;
                                lastFiles: {
                                    /** @description invalid: every problem, with line and column; else warnings */
                                    diagnostics: {
                                        code: string;
                                        column?: number;
                                        file?: string;
                                        line?: number;
                                        message: string;
                                        path?: string;
                                    }[];
                                    /** @description the workflow file's path in the repository */
                                    path: string;
                                    /**
                                     * @description saved: a new version; unchanged: the current version already has it; invalid: not saved, the current version stays; removed: the file is gone, the workflow archived
                                     * @enum {string}
                                     */
                                    status: "saved" | "unchanged" | "invalid" | "removed";
                                    version: number | null;
                                    workflow: string | null;
                                }[];
                                lastStatus: ("ok" | "invalid" | "failed") | null;
                                lastSyncAt: string | null;
                                nextSyncAt: string | null;
                                syncing: boolean;
                                syncIntervalMinutes: number | null;
                                url: string;
                                username: string;
                                /** @description push webhooks: POST here (under the dashboard's address), signed with the webhook secret */
                                webhookPath: string;
                                workflows: {
                                    id: string;
                                    name: string;
                                    path: string | null;
                                }[];
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Admins: link a git repository whose folder's *.yaml files become the team's workflows (read-only in the editor); the token is stored sealed, the webhook secret is in this answer only */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default main */
                        branch?: string;
                        /**
                         * @description the folder whose *.yaml files are workflows; empty for the root
                         * @default
                         */
                        folder?: string;
                        /** @description sync on a schedule every so many minutes; null or unset: on demand and by webhook only */
                        syncIntervalMinutes?: number | null;
                        /** @description an access token that may read the repository; stored sealed, never shown again */
                        token?: string;
                        /** @description https URL of the repository (http only to a host the egress allow-list names), or a local path under SWITCHYARD_GIT_LOCAL_ROOTS */
                        url: string;
                        /** @description the user name sent with the token (x-access-token unless set; GitLab: oauth2) */
                        username?: string;
                    };
                };
            };
            responses: {
                /** @description Linked */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            source: {
                                branch: string;
                                /** @description ISO 8601 */
                                createdAt: string;
                                folder: string;
                                hasToken: boolean;
                                id: string;
                                lastCommit: string | null;
                                lastError: string | null;
                                lastFiles: {
                                    /** @description invalid: every problem, with line and column; else warnings */
                                    diagnostics: {
                                        code: string;
                                        column?: number;
                                        file?: string;
                                        line?: number;
                                        message: string;
                                        path?: string;
                                    }[];
                                    /** @description the workflow file's path in the repository */
                                    path: string;
                                    /**
                                     * @description saved: a new version; unchanged: the current version already has it; invalid: not saved, the current version stays; removed: the file is gone, the workflow archived
                                     * @enum {string}
                                     */
                                    status: "saved" | "unchanged" | "invalid" | "removed";
                                    version: number | null;
                                    workflow: string | null;
                                }[];
                                lastStatus: ("ok" | "invalid" | "failed") | null;
                                lastSyncAt: string | null;
                                nextSyncAt: string | null;
                                syncing: boolean;
                                syncIntervalMinutes: number | null;
                                url: string;
                                username: string;
                                /** @description push webhooks: POST here (under the dashboard's address), signed with the webhook secret */
                                webhookPath: string;
                                workflows: {
                                    id: string;
                                    name: string;
                                    path: string | null;
                                }[];
                            };
                            /** @description the push webhook's secret, shown only in this answer */
                            webhookSecret: string;
                        };
                    };
                };
                /** @description The URL, branch or folder is refused (USER.GIT.INVALID_SOURCE, USER.EGRESS.DENIED) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/git-sources/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A linked git repository, with its last sync per file */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The git repository */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            branch: string;
                            /** @description ISO 8601 */
                            createdAt: string;
                            folder: string;
                            hasToken: boolean;
                            id: string;
                            lastCommit: string | null;
                            lastError: string | null;
                            lastFiles: {
                                /** @description invalid: every problem, with line and column; else warnings */
                                diagnostics: {
                                    code: string;
                                    column?: number;
                                    file?: string;
                                    line?: number;
                                    message: string;
                                    path?: string;
                                }[];
                                /** @description the workflow file's path in the repository */
                                path: string;
                                /**
                                 * @description saved: a new version; unchanged: the current version already has it; invalid: not saved, the current version stays; removed: the file is gone, the workflow archived
                                 * @enum {string}
                                 */
                                status: "saved" | "unchanged" | "invalid" | "removed";
                                version: number | null;
                                workflow: string | null;
                            }[];
                            lastStatus: ("ok" | "invalid" | "failed") | null;
                            lastSyncAt: string | null;
                            nextSyncAt: string | null;
                            syncing: boolean;
                            syncIntervalMinutes: number | null;
                            url: string;
                            username: string;
                            /** @description push webhooks: POST here (under the dashboard's address), signed with the webhook secret */
                            webhookPath: string;
                            workflows: {
                                id: string;
                                name: string;
                                path: string | null;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Admins: unlink a git repository; its token and webhook secret are deleted, its workflows stay as the team's own (editable) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Unlinked */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/git-sources/{id}/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Members: sync now; each workflow file that validates gets a new version with the commit id, one that does not keeps its current version and is reported with every problem's line and column */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description What the sync did, per file */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the commit id read */
                            commit: string | null;
                            error: {
                                code: string;
                                message: string;
                            } | null;
                            files: {
                                /** @description invalid: every problem, with line and column; else warnings */
                                diagnostics: {
                                    code: string;
                                    column?: number;
                                    file?: string;
                                    line?: number;
                                    message: string;
                                    path?: string;
                                }[];
                                /** @description the workflow file's path in the repository */
                                path: string;
                                /**
                                 * @description saved: a new version; unchanged: the current version already has it; invalid: not saved, the current version stays; removed: the file is gone, the workflow archived
                                 * @enum {string}
                                 */
                                status: "saved" | "unchanged" | "invalid" | "removed";
                                version: number | null;
                                workflow: string | null;
                            }[];
                            /** @enum {string} */
                            status: "ok" | "invalid" | "failed";
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description A sync of this repository is running (USER.GIT.SYNC_RUNNING) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/instance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Instance admins: the installation's settings (who may create teams, sign-up without an invitation, SSO only, the longest token lifetime, any connector command) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The installation's settings */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description team-authored stdio connectors may run any command; false: only commands from the connectors folder */
                            allowAnyConnectorCommand: boolean;
                            /** @description the longest an API token may live, in days; null: no limit */
                            maxTokenLifetimeDays: number | null;
                            /** @description whether people may make an account without an invitation (a sign-up page, and a first single sign-on) */
                            openSignUp: boolean;
                            /** @description whether this server has a single sign-on issuer (SWITCHYARD_OIDC_*); read-only */
                            ssoConfigured: boolean;
                            /** @description password sign-in refused, single sign-on only; takes effect only while an issuer is configured */
                            ssoOnly: boolean;
                            /**
                             * @description who may create teams: instance admins only, or anyone signed in
                             * @enum {string}
                             */
                            teamCreation: "instance_admins" | "anyone";
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member is not an instance admin */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Instance admins, with a token acting as admin or owner: change the installation's settings; fields left out keep their value. SSO only is refused while no issuer is configured, or before you have signed in through it */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        allowAnyConnectorCommand?: boolean;
                        maxTokenLifetimeDays?: number | null;
                        openSignUp?: boolean;
                        ssoOnly?: boolean;
                        /**
                         * @description who may create teams: instance admins only, or anyone signed in
                         * @enum {string}
                         */
                        teamCreation?: "instance_admins" | "anyone";
                    };
                };
            };
            responses: {
                /** @description The installation's settings as stored */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description team-authored stdio connectors may run any command; false: only commands from the connectors folder */
                            allowAnyConnectorCommand: boolean;
                            /** @description the longest an API token may live, in days; null: no limit */
                            maxTokenLifetimeDays: number | null;
                            /** @description whether people may make an account without an invitation (a sign-up page, and a first single sign-on) */
                            openSignUp: boolean;
                            /** @description whether this server has a single sign-on issuer (SWITCHYARD_OIDC_*); read-only */
                            ssoConfigured: boolean;
                            /** @description password sign-in refused, single sign-on only; takes effect only while an issuer is configured */
                            ssoOnly: boolean;
                            /**
                             * @description who may create teams: instance admins only, or anyone signed in
                             * @enum {string}
                             */
                            teamCreation: "instance_admins" | "anyone";
                        };
                    };
                };
                /** @description Bad input, or SSO only while no issuer is configured or before you signed in through it (USER.INSTANCE.SSO_NOT_CONFIGURED at ssoOnly) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member is not an instance admin, or the token acts below admin */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Admins: the team's pending invitations (never their links) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Pending invitations */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            invitations: {
                                /** @description ISO 8601 */
                                createdAt: string;
                                email: string | null;
                                /** @description ISO 8601 */
                                expiresAt: string;
                                id: string;
                                /** @enum {string} */
                                role: "owner" | "admin" | "member" | "viewer";
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Admins: invite by link (an owner only by an owner); the token and its path are in this answer only */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: email
                         * @description only this email may accept; anyone holding the link when left out
                         */
                        email?: string;
                        /**
                         * @description days until the link expires, 1 to 30 (7 by default)
                         * @default 7
                         */
                        expiresInDays?: number;
                        /**
                         * @description the role the invited person gets
                         * @enum {string}
                         */
                        role: "owner" | "admin" | "member" | "viewer";
                    };
                };
            };
            responses: {
                /** @description The invitation and its link */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description ISO 8601 */
                            createdAt: string;
                            email: string | null;
                            /** @description ISO 8601 */
                            expiresAt: string;
                            id: string;
                            /** @description the link to send, under this server: /invite/<token> */
                            path: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member" | "viewer";
                            token: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invitations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Admins: revoke a pending invitation; its link stops working */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Revoked */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/lanes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's lanes: who may save and start workflows in each, and what names each */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Lanes */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            lanes: {
                                /** @description tool calls of the lane's runs that wait for a person's approval (docs/governance.md) */
                                approvalRules: {
                                    command?: string;
                                    /** @enum {string} */
                                    min_role?: "member" | "admin" | "owner";
                                    not_starter?: boolean;
                                    outside?: string;
                                    tool: string;
                                }[];
                                /** @description default and operator: never removed; operator's roles stay owner and admin */
                                builtIn: boolean;
                                /** @description ISO 8601 */
                                createdAt: string;
                                description: string;
                                name: string;
                                /** @description roles that may save workflows in the lane */
                                saveRoles: ("owner" | "admin" | "member" | "viewer")[];
                                /** @description roles that may start (and cancel) runs in the lane */
                                startRoles: ("owner" | "admin" | "member" | "viewer")[];
                                /** @description what names the lane: a lane is removed only when nothing does */
                                usedBy: {
                                    connectors: string[];
                                    secrets: string[];
                                    workflows: string[];
                                };
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Admins: add a lane; operator's roles stay owner and admin */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default  */
                        description?: string;
                        /** @description the lane's name, e.g. review */
                        name: string;
                        /** @description roles that may save workflows in the lane */
                        saveRoles: ("owner" | "admin" | "member" | "viewer")[];
                        /** @description roles that may start (and cancel) runs in the lane */
                        startRoles: ("owner" | "admin" | "member" | "viewer")[];
                    };
                };
            };
            responses: {
                /** @description The lane as stored */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description tool calls of the lane's runs that wait for a person's approval (docs/governance.md) */
                            approvalRules: {
                                command?: string;
                                /** @enum {string} */
                                min_role?: "member" | "admin" | "owner";
                                not_starter?: boolean;
                                outside?: string;
                                tool: string;
                            }[];
                            /** @description default and operator: never removed; operator's roles stay owner and admin */
                            builtIn: boolean;
                            /** @description ISO 8601 */
                            createdAt: string;
                            description: string;
                            name: string;
                            /** @description roles that may save workflows in the lane */
                            saveRoles: ("owner" | "admin" | "member" | "viewer")[];
                            /** @description roles that may start (and cancel) runs in the lane */
                            startRoles: ("owner" | "admin" | "member" | "viewer")[];
                            /** @description what names the lane: a lane is removed only when nothing does */
                            usedBy: {
                                connectors: string[];
                                secrets: string[];
                                workflows: string[];
                            };
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/lanes/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Admins: change a lane's description and who may save and start in it (its name stays) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @default  */
                        description?: string;
                        /** @description roles that may save workflows in the lane */
                        saveRoles: ("owner" | "admin" | "member" | "viewer")[];
                        /** @description roles that may start (and cancel) runs in the lane */
                        startRoles: ("owner" | "admin" | "member" | "viewer")[];
                    };
                };
            };
            responses: {
                /** @description The lane as stored */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description tool calls of the lane's runs that wait for a person's approval (docs/governance.md) */
                            approvalRules: {
                                command?: string;
                                /** @enum {string} */
                                min_role?: "member" | "admin" | "owner";
                                not_starter?: boolean;
                                outside?: string;
                                tool: string;
                            }[];
                            /** @description default and operator: never removed; operator's roles stay owner and admin */
                            builtIn: boolean;
                            /** @description ISO 8601 */
                            createdAt: string;
                            description: string;
                            name: string;
                            /** @description roles that may save workflows in the lane */
                            saveRoles: ("owner" | "admin" | "member" | "viewer")[];
                            /** @description roles that may start (and cancel) runs in the lane */
                            startRoles: ("owner" | "admin" | "member" | "viewer")[];
                            /** @description what names the lane: a lane is removed only when nothing does */
                            usedBy: {
                                connectors: string[];
                                secrets: string[];
                                workflows: string[];
                            };
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        /** Admins: remove a lane nothing names (never default or operator) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            name: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Built in, or still named by a workflow, a connector or a secret */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/lanes/{name}/approval-rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Which tool calls of the lane's runs wait for a person's approval */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The lane's approval rules */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            lane: string;
                            /** @description tool calls of the lane's runs that wait for a person's approval (docs/governance.md) */
                            rules: {
                                command?: string;
                                /** @enum {string} */
                                min_role?: "member" | "admin" | "owner";
                                not_starter?: boolean;
                                outside?: string;
                                tool: string;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Admins: replace the lane's approval rules (connector tools by pattern; Bash by command; Write and Edit outside a path) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the lane's rules, all of them: what is left out is removed */
                        rules: {
                            command?: string;
                            /** @enum {string} */
                            min_role?: "member" | "admin" | "owner";
                            not_starter?: boolean;
                            outside?: string;
                            tool: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description The lane's rules as stored */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            lane: string;
                            /** @description tool calls of the lane's runs that wait for a person's approval (docs/governance.md) */
                            rules: {
                                command?: string;
                                /** @enum {string} */
                                min_role?: "member" | "admin" | "owner";
                                not_starter?: boolean;
                                outside?: string;
                                tool: string;
                            }[];
                        };
                    };
                };
                /** @description A rule is not valid: USER.APPROVAL.RULE_INVALID names its index and field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's members: name, email, role and when each joined */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Members */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            members: {
                                email: string;
                                /** @description ISO 8601 */
                                joinedAt: string;
                                name: string;
                                /** @enum {string} */
                                role: "owner" | "admin" | "member" | "viewer";
                                userId: string;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Admins: change a member's role; only an owner grants or takes away owner, and the last owner keeps it */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        role: "owner" | "admin" | "member" | "viewer";
                    };
                };
            };
            responses: {
                /** @description The member's new role */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            role: "owner" | "admin" | "member" | "viewer";
                            userId: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The last owner */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        /** Admins: remove a member from the team (an owner only by an owner; never the last owner); their sessions and API tokens in the team stop at once */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            userId: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The last owner */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How the team's agent steps reach each model vendor: endpoints, and whether a key is set with its last four characters (never the key) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Every vendor, configured or not */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            models: {
                                allowedEndpoints: string[];
                                /** @description whether the team set access for this vendor */
                                configured: boolean;
                                /** @description the vendor's own base URL; null for openai_compatible */
                                defaultEndpoint: string | null;
                                /** @description the team's base URL; null: the vendor's default */
                                endpoint: string | null;
                                /** @description the key's last four characters; the key is never returned */
                                keyHint: string | null;
                                keySet: boolean;
                                /** @description ISO 8601; null when not configured */
                                updatedAt: string | null;
                                /** @enum {string} */
                                vendor: "anthropic" | "openai" | "gemini" | "openai_compatible";
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/models/{vendor}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Admins: set a vendor's API key (write-only) and endpoint, or openai_compatible's allowed endpoints; fields left out keep their value */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    vendor: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description openai_compatible only, at least one: base URLs a step's options.base_url must fall under */
                        allowedEndpoints?: string[];
                        /** @description write-only; replaces the stored key. null drops it (openai_compatible only: the others need one) */
                        apiKey?: string | null;
                        /** @description base URL (https, or http on loopback); null or empty: the vendor's default. Not for openai_compatible */
                        endpoint?: string | null;
                    };
                };
            };
            responses: {
                /** @description The vendor's access as stored */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowedEndpoints: string[];
                            /** @description whether the team set access for this vendor */
                            configured: boolean;
                            /** @description the vendor's own base URL; null for openai_compatible */
                            defaultEndpoint: string | null;
                            /** @description the team's base URL; null: the vendor's default */
                            endpoint: string | null;
                            /** @description the key's last four characters; the key is never returned */
                            keyHint: string | null;
                            keySet: boolean;
                            /** @description ISO 8601; null when not configured */
                            updatedAt: string | null;
                            /** @enum {string} */
                            vendor: "anthropic" | "openai" | "gemini" | "openai_compatible";
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        /** Admins: remove a vendor's access, and its key with it */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    vendor: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            vendor: "anthropic" | "openai" | "gemini" | "openai_compatible";
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Admins: the team's latest notification deliveries, newest first */
        get: {
            parameters: {
                query?: {
                    limit?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deliveries */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deliveries: {
                                attempts: number;
                                /** @description ISO 8601 */
                                createdAt: string;
                                deliveredAt: string | null;
                                endpointId: string;
                                event: string;
                                id: string;
                                lastError: string | null;
                                lastStatusCode: number | null;
                                runId: string;
                                /** @enum {string} */
                                status: "pending" | "delivered" | "failed";
                                url: string;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Admins: where the team is told that runs ended */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Endpoints */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            endpoints: {
                                /** @description ISO 8601 */
                                createdAt: string;
                                enabled: boolean;
                                events: string[];
                                id: string;
                                /** @description ISO 8601 */
                                updatedAt: string;
                                url: string;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Admins: add an endpoint (https to a public address, or what the operator's egress allow-list names) for run.succeeded, run.failed, run.cancelled, wait.opened (a run waits for a person's answer) and budget.warning (a step's spend passed 80% of a budget limit); its signing secret is in this answer only */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        enabled?: boolean;
                        events: ("run.succeeded" | "run.failed" | "run.cancelled" | "wait.opened" | "budget.warning")[];
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            endpoint: {
                                /** @description ISO 8601 */
                                createdAt: string;
                                enabled: boolean;
                                events: string[];
                                id: string;
                                /** @description ISO 8601 */
                                updatedAt: string;
                                url: string;
                            };
                            /** @description the signing secret, shown only in this answer */
                            secret: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Admins: change an endpoint's URL, events or whether it is enabled */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        enabled?: boolean;
                        events?: ("run.succeeded" | "run.failed" | "run.cancelled" | "wait.opened" | "budget.warning")[];
                        url?: string;
                    };
                };
            };
            responses: {
                /** @description The endpoint */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description ISO 8601 */
                            createdAt: string;
                            enabled: boolean;
                            events: string[];
                            id: string;
                            /** @description ISO 8601 */
                            updatedAt: string;
                            url: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        /** Admins: remove an endpoint */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/endpoints/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Admins: send a test notification to an endpoint */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Enqueued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deliveryId: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's runs by status and day, success rate, p50/p95 step duration, tokens and cost per day and per workflow, and the most called tools and connectors, over the last 7, 30 or 90 days in a time zone */
        get: {
            parameters: {
                query?: {
                    days?: "7" | "30" | "90";
                    tz?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The overview */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            perDay: {
                                /** @description YYYY-MM-DD in the time zone */
                                date: string;
                                runs: {
                                    cancelled: number;
                                    failed: number;
                                    queued: number;
                                    running: number;
                                    succeeded: number;
                                    /** @description waiting for a person's answer */
                                    waiting: number;
                                };
                                stepDuration: {
                                    /** @description median duration of the finished steps, ms; null without any */
                                    p50Ms: number | null;
                                    /** @description 95th percentile (linear interpolation), ms */
                                    p95Ms: number | null;
                                    /** @description finished steps measured */
                                    steps: number;
                                };
                                usage: {
                                    costUsd: number;
                                    inputTokens: number;
                                    outputTokens: number;
                                };
                            }[];
                            range: {
                                days: number;
                                /** @description local midnight of the first day */
                                from: unknown | unknown;
                                timeZone: string;
                                /** @description now */
                                to: unknown | unknown;
                            };
                            runs: {
                                byStatus: {
                                    cancelled: number;
                                    failed: number;
                                    queued: number;
                                    running: number;
                                    succeeded: number;
                                    /** @description waiting for a person's answer */
                                    waiting: number;
                                };
                                /** @description succeeded / (succeeded + failed + cancelled); null when none finished */
                                successRate: number | null;
                                total: number;
                            };
                            stepDuration: {
                                /** @description median duration of the finished steps, ms; null without any */
                                p50Ms: number | null;
                                /** @description 95th percentile (linear interpolation), ms */
                                p95Ms: number | null;
                                /** @description finished steps measured */
                                steps: number;
                            };
                            /** @description the ten most called connectors */
                            topConnectors: {
                                calls: number;
                                connectorId: string;
                                /** @description errors / calls, 0 to 1 */
                                errorRate: number;
                                errors: number;
                            }[];
                            /** @description the ten most called tools */
                            topTools: {
                                calls: number;
                                /** @description errors / calls, 0 to 1 */
                                errorRate: number;
                                errors: number;
                                name: string;
                            }[];
                            usage: {
                                costUsd: number;
                                inputTokens: number;
                                outputTokens: number;
                            };
                            /** @description the ten costliest workflows */
                            usageByWorkflow: {
                                costUsd: number;
                                inputTokens: number;
                                name: string;
                                outputTokens: number;
                                steps: number;
                                workflowId: string;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/packs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's workflow packs with their current versions and workflows */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Packs */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            packs: {
                                description: string;
                                installedAt: string | null;
                                name: string;
                                /** @description the install's number (1 for the first) */
                                number: number | null;
                                /** @description "upload", or the GitHub repository it came from */
                                source: string;
                                /** @description the manifest's version of the current install */
                                version: string | null;
                                workflows: {
                                    id: string;
                                    /** @description `<pack>/<workflow>` */
                                    name: string;
                                }[];
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Members: install a workflow pack, or update an installed one, from its .tar.gz or a GitHub release; each pack workflow gets a new version */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: base64
                         * @description the pack's .tar.gz, base64-encoded
                         */
                        archive?: string;
                        /** @description a GitHub release to download instead: owner/repo or owner/repo@1.2.0 */
                        source?: string;
                        /** @description with source: the team secret variable holding a GitHub token, for a private repository (sent to the GitHub API only) */
                        tokenSecret?: string;
                    };
                };
            };
            responses: {
                /** @description Installed */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            name: string;
                            number: number;
                            version: string;
                            /** @description plugins the pack asks for, and workflow warnings */
                            warnings: {
                                code: string;
                                column?: number;
                                file?: string;
                                line?: number;
                                message: string;
                                path?: string;
                            }[];
                            workflows: {
                                id: string;
                                /** @description `<pack>/<workflow>` */
                                name: string;
                                /** @description the workflow's version number */
                                version: number;
                            }[];
                        };
                    };
                };
                /** @description The archive or its manifest does not read (USER.PACK.*); details.errors lists every problem */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The pack's name collides with the team's own workflows */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 7.7 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description A pack workflow does not validate; details.diagnostics lists every problem */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/packs/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workflow pack's manifest, README, workflows and versions */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The pack */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            author: string;
                            awfVersion: string;
                            description: string;
                            installedAt: string | null;
                            license: string;
                            name: string;
                            /** @description the install's number (1 for the first) */
                            number: number | null;
                            plugins: {
                                [key: string]: string;
                            };
                            readme: string;
                            /** @description "upload", or the GitHub repository it came from */
                            source: string;
                            /** @description the manifest's version of the current install */
                            version: string | null;
                            versions: {
                                /** @description ISO 8601 */
                                createdAt: string;
                                number: number;
                                version: string;
                            }[];
                            workflows: {
                                id: string;
                                /** @description `<pack>/<workflow>` */
                                name: string;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Members: remove a workflow pack; its workflows are archived (their runs stay) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            name: string;
                            workflowsArchived: number;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/replay-suites/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A suite replay's table: each replay's source attempt, status, match or first divergence, and its token and cost differences */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The suite */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            counts: {
                                diverged: number;
                                matched: number;
                                /** @description not finished, or finished without an attempt */
                                pending: number;
                                total: number;
                            };
                            /** @description ISO 8601 */
                            createdAt: string;
                            id: string;
                            options: {
                                /**
                                 * @description the installed CLI that runs it: the pinned one (default) or the newest installed
                                 * @enum {string}
                                 */
                                agentVersion?: "pinned" | "latest";
                                /** @description another model (options.model) */
                                model?: string;
                                /** @description another prompt */
                                prompt?: string;
                                /**
                                 * @description another provider; the recorded one when unset
                                 * @enum {string}
                                 */
                                provider?: "claude" | "codex" | "gemini" | "opencode" | "openai_compatible";
                                /**
                                 * @description a call with no recording left: a tool error (default), or built-ins run live in the sandbox (connector tools never do)
                                 * @enum {string}
                                 */
                                unmatched?: "error" | "live_builtins";
                            };
                            replays: {
                                costUsd: {
                                    a: number | null;
                                    b: number | null;
                                    /** @description b minus a; null when either is unknown */
                                    delta: number | null;
                                } | null;
                                firstDivergence: number | null;
                                inputTokens: {
                                    a: number | null;
                                    b: number | null;
                                    /** @description b minus a; null when either is unknown */
                                    delta: number | null;
                                } | null;
                                /** @description null until the replay's attempt has finished */
                                match: boolean | null;
                                outputTokens: {
                                    a: number | null;
                                    b: number | null;
                                    /** @description b minus a; null when either is unknown */
                                    delta: number | null;
                                } | null;
                                runId: string;
                                sameAnswer: boolean | null;
                                source: {
                                    runId: string;
                                    stateName: string;
                                    stepRunId: string;
                                };
                                /** @enum {string} */
                                status: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled";
                                /** @description the replay's attempt, once it has one */
                                stepRunId: string | null;
                            }[];
                            workflowId: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's runs, newest first, a page at a time, narrowed by status, workflow, lane, trigger, starter and time; with counts per status under the same filters */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    example?: "true" | "false";
                    from?: string;
                    lane?: string;
                    limit?: number;
                    startedBy?: string;
                    status?: ("queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled")[];
                    to?: string;
                    trigger?: ("dashboard" | "api" | "cli" | "call_workflow" | "schedule" | "webhook" | "replay")[];
                    workflowId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of runs, the cursor of the next, and counts per status */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description runs per status under the same filters (status aside) */
                            counts: {
                                cancelled: number;
                                failed: number;
                                queued: number;
                                running: number;
                                succeeded: number;
                                /** @description runs waiting for a person's answer */
                                waiting: number;
                            };
                            /** @description pass as cursor for the next page; null on the last page */
                            nextCursor: string | null;
                            runs: {
                                /** @description ISO 8601 */
                                createdAt: string;
                                errorCode: string | null;
                                exampleAt: string | null;
                                finishedAt: string | null;
                                id: string;
                                lane: string;
                                replayOfId: string | null;
                                rerunOfId: string | null;
                                startedAt: string | null;
                                startedBy: {
                                    id: string;
                                    name: string;
                                } | null;
                                /** @enum {string} */
                                status: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled";
                                trigger: string;
                                workflow: {
                                    name: string;
                                };
                                workflowId: string;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A run with its steps, inputs and outputs, who or what started it, and the run it re-ran */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The run */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description ISO 8601 */
                            createdAt: string;
                            errorCode: string | null;
                            errorMessage: string | null;
                            /** @description when the run was marked an example of its workflow */
                            exampleAt: string | null;
                            finishedAt: string | null;
                            /** @description the schedule or webhook trigger that started it */
                            firedBy: {
                                id: string;
                                kind: string;
                                name: string;
                            } | null;
                            id: string;
                            /** @description the inputs it started with */
                            inputs: unknown;
                            lane: string;
                            /** @description what it produced, once finished */
                            outputs: unknown | null;
                            /** @description the run whose call_workflow started it */
                            parentRunId: string | null;
                            /** @description a replay: the step attempt it runs again */
                            replayOfId: string | null;
                            /** @description the run this one re-ran */
                            rerunOfId: string | null;
                            startedAt: string | null;
                            /** @description who started it (an API token's owner) */
                            startedBy: {
                                id: string;
                                name: string;
                            } | null;
                            /** @enum {string} */
                            status: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled";
                            steps: ({
                                /** @description 1 for the first try, then each retry */
                                attempt: number;
                                /** @description AWF's state.conversation of a mode: conversation or session-tracked (conversation:) agent step, scrubbed */
                                conversation?: {
                                    continued_from?: string;
                                    provider: string;
                                    /** @description the provider's session id (empty: none) */
                                    session_id: string;
                                    /**
                                     * @description how a conversation ended: user_exit (exit, quit, an empty message or none in time) or error
                                     * @enum {string}
                                     */
                                    stopped_by?: "user_exit" | "error";
                                    total_tokens: number;
                                    total_turns: number;
                                    turns: {
                                        content: string;
                                        /** @enum {string} */
                                        role: "user" | "assistant";
                                    }[];
                                } | null;
                                /** @description what an agent step's model requests cost (USD), as metered */
                                costUsd: number | null;
                                errorCode: string | null;
                                errorMessage: string | null;
                                exitCode: number | null;
                                finishedAt: string | null;
                                id: string;
                                inputTokens: number | null;
                                /** @description what the step produced: its stdout, or an agent's answer */
                                output: string;
                                outputTokens: number | null;
                                /** @description an agent step's provider */
                                provider: string | null;
                                /** @description the sandbox the step ran in */
                                sandboxLevel: string | null;
                                startedAt: string | null;
                                stateName: string;
                                status: string;
                                stderr: string;
                                stdout: string;
                                /** @description step or agent */
                                stepType: string;
                                /** @description the tool calls an agent step made */
                                toolCallCount: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description the surface that started it: dashboard, api (an API token), cli, call_workflow, schedule, webhook or replay */
                            trigger: string;
                            /** @description the workflow's name */
                            workflow: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a queued, running or waiting run (a run waiting for a person is cancelled at once, its open waits with it) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Cancelled or cancelling */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description cancelled: it had not started, or it waited for a person; cancelling: its worker is told to stop
                             * @enum {string}
                             */
                            status: "cancelled" | "cancelling";
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The run has already ended (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The run's events as Server-Sent Events (text/event-stream): every stored event with `id: <seq>` and its type as the event name (`event: run.started`); reconnect with Last-Event-ID (or ?after=<seq>) to get exactly the rest; the stream ends with `event: end` when the run has ended, or when the token no longer holds (checked every few seconds) */
        get: {
            parameters: {
                query?: {
                    after?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description An event stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": {
                            /** @description ISO 8601 */
                            at: string;
                            payload: unknown;
                            seq: number;
                            type: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}/example": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Mark the run an example of its workflow: replaying all examples (POST /workflows/{id}/replay-suites) replays its agent attempts */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Marked */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            exampleAt: string | null;
                            id: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        /** Unmark the run as an example of its workflow */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Unmarked */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            exampleAt: string | null;
                            id: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download the run's logs: NDJSON lines for the run, each step attempt's output and every stored event (Content-Disposition: attachment) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The logs, as an attachment */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/x-ndjson": {
                            /** @enum {string} */
                            kind: "run" | "step" | "event";
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}/rerun": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start the run's workflow version again with the same inputs, as a new run that names this one (rerunOfId); needs what starting the workflow needs */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The new run, queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            /** @enum {string} */
                            status: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled";
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}/spans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The run's trace spans, oldest first (nest them by parentSpanId); `truncated` when it has more than `limit` */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Spans */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            spans: {
                                attributes: unknown;
                                endTime: string | null;
                                kind: string;
                                name: string;
                                parentSpanId: string | null;
                                spanId: string;
                                /** @description ISO 8601 */
                                startTime: string;
                                status: string;
                            }[];
                            /** @description true when only the first spans are listed */
                            truncated: boolean;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}/steps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The run's step attempts in the order they started, with their output */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Steps */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            steps: ({
                                /** @description 1 for the first try, then each retry */
                                attempt: number;
                                /** @description AWF's state.conversation of a mode: conversation or session-tracked (conversation:) agent step, scrubbed */
                                conversation?: {
                                    continued_from?: string;
                                    provider: string;
                                    /** @description the provider's session id (empty: none) */
                                    session_id: string;
                                    /**
                                     * @description how a conversation ended: user_exit (exit, quit, an empty message or none in time) or error
                                     * @enum {string}
                                     */
                                    stopped_by?: "user_exit" | "error";
                                    total_tokens: number;
                                    total_turns: number;
                                    turns: {
                                        content: string;
                                        /** @enum {string} */
                                        role: "user" | "assistant";
                                    }[];
                                } | null;
                                /** @description what an agent step's model requests cost (USD), as metered */
                                costUsd: number | null;
                                errorCode: string | null;
                                errorMessage: string | null;
                                exitCode: number | null;
                                finishedAt: string | null;
                                id: string;
                                inputTokens: number | null;
                                /** @description what the step produced: its stdout, or an agent's answer */
                                output: string;
                                outputTokens: number | null;
                                /** @description an agent step's provider */
                                provider: string | null;
                                /** @description the sandbox the step ran in */
                                sandboxLevel: string | null;
                                startedAt: string | null;
                                stateName: string;
                                status: string;
                                stderr: string;
                                stdout: string;
                                /** @description step or agent */
                                stepType: string;
                                /** @description the tool calls an agent step made */
                                toolCallCount: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}/steps/{stepId}/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What an agent step did so far: its tool calls by start and its text, retries, usage, answer and errors in order (the latest ones when there are many) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    stepId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The step's activity */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description in the order they happened */
                            events: {
                                /** @description ISO 8601 */
                                at: string;
                                event: {
                                    /** @description text as it arrived (consecutive events make one message) */
                                    text: string;
                                    /** @constant */
                                    type: "text";
                                } | {
                                    attempt: number;
                                    delayMs: number;
                                    message: string;
                                    status?: number;
                                    /** @constant */
                                    type: "retry";
                                } | {
                                    /** @description counted from the text when the model did not say */
                                    estimated: boolean;
                                    inputTokens: number;
                                    outputTokens: number;
                                    /** @constant */
                                    type: "usage";
                                } | {
                                    text: string;
                                    turns?: number;
                                    /** @constant */
                                    type: "final";
                                } | {
                                    code: string;
                                    message: string;
                                    /** @constant */
                                    type: "error";
                                };
                                seq: number;
                            }[];
                            /** @description true when only the latest events are listed */
                            eventsTruncated: boolean;
                            status: string;
                            stepRunId: string;
                            /** @description in the order they started */
                            toolCalls: {
                                /** @description what the tool was called with, secrets scrubbed */
                                arguments: unknown;
                                durationMs: number;
                                errorType: string | null;
                                /**
                                 * @description proxy: the step's MCP proxy saw it; agent_reported: the agent CLI ran it and said so
                                 * @enum {string}
                                 */
                                fidelity: "proxy" | "agent_reported";
                                id: string;
                                isError: boolean;
                                /** @description what it answered, secrets scrubbed */
                                result: unknown;
                                /** @description builtin, proxy, agent, or the id of the connector that served it */
                                source: string;
                                /** @description ISO 8601 */
                                startedAt: string;
                                toolName: string;
                            }[];
                            /** @description true when only the latest tool calls are listed */
                            toolCallsTruncated: boolean;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}/tool-calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The run's tool calls (every step's) in the order they started, a page at a time */
        get: {
            parameters: {
                query?: {
                    after?: string;
                    limit?: number;
                    stepRunId?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of tool calls and where the next starts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description pass as after for the next page; null on the last page */
                            nextAfter: string | null;
                            /** @description in the order they started */
                            toolCalls: {
                                /** @description what the tool was called with, secrets scrubbed */
                                arguments: unknown;
                                durationMs: number;
                                errorType: string | null;
                                /**
                                 * @description proxy: the step's MCP proxy saw it; agent_reported: the agent CLI ran it and said so
                                 * @enum {string}
                                 */
                                fidelity: "proxy" | "agent_reported";
                                id: string;
                                isError: boolean;
                                /** @description what it answered, secrets scrubbed */
                                result: unknown;
                                /** @description builtin, proxy, agent, or the id of the connector that served it */
                                source: string;
                                /** @description ISO 8601 */
                                startedAt: string;
                                stepRunId: string;
                                toolName: string;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{runId}/steps/{stepRunId}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replay a finished agent attempt: a new run (trigger replay) of the same workflow version, lane and inputs that runs that attempt again from its workspace snapshot, its tool calls answered from the recording; optionally another provider, model, CLI version or prompt */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    runId: string;
                    stepRunId: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /**
                         * @description the installed CLI that runs it: the pinned one (default) or the newest installed
                         * @enum {string}
                         */
                        agentVersion?: "pinned" | "latest";
                        /** @description another model (options.model) */
                        model?: string;
                        /** @description another prompt */
                        prompt?: string;
                        /**
                         * @description another provider; the recorded one when unset
                         * @enum {string}
                         */
                        provider?: "claude" | "codex" | "gemini" | "opencode" | "openai_compatible";
                        /**
                         * @description a call with no recording left: a tool error (default), or built-ins run live in the sandbox (connector tools never do)
                         * @enum {string}
                         */
                        unmatched?: "error" | "live_builtins";
                    };
                };
            };
            responses: {
                /** @description The replay run, queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            /** @enum {string} */
                            status: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled";
                        };
                    };
                };
                /** @description The attempt is not a finished agent attempt with a recorded request (USER.REPLAY.NOT_REPLAYABLE) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The workspace the attempt started from was not kept (USER.REPLAY.NO_SNAPSHOT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/skills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's library skills with their current versions */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Skills */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            skills: {
                                /** @description the front matter's description */
                                description: string;
                                name: string;
                                /** @description ISO 8601 */
                                updatedAt: string;
                                version: number | null;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/skills/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A library skill's SKILL.md (current, or ?version=N) and its versions */
        get: {
            parameters: {
                query?: {
                    version?: number;
                };
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The skill */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the SKILL.md of the version asked for */
                            content: string;
                            /** @description the front matter's description */
                            description: string;
                            name: string;
                            /** @description the version whose content this is */
                            shownVersion: number;
                            /** @description ISO 8601 */
                            updatedAt: string;
                            version: number | null;
                            versions: {
                                /** @description ISO 8601 */
                                createdAt: string;
                                number: number;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Members: save a library skill as a new version (workflows pin it when they are saved again) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the SKILL.md: agentskills.io front matter (name, description, ...) then Markdown */
                        content: string;
                    };
                };
            };
            responses: {
                /** @description Saved */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description false when the text was unchanged and no version was made */
                            created: boolean;
                            name: string;
                            version: number;
                            warnings: {
                                code: string;
                                column?: number;
                                file?: string;
                                line?: number;
                                message: string;
                                path?: string;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        /** Members: delete a library skill (saved workflow versions keep their pinned copy) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            name: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/skills/{name}/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check a SKILL.md against the agentskills.io format without saving it */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the SKILL.md: agentskills.io front matter (name, description, ...) then Markdown */
                        content: string;
                    };
                };
            };
            responses: {
                /** @description Diagnostics */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            errors: {
                                code: string;
                                column?: number;
                                file?: string;
                                line?: number;
                                message: string;
                                path?: string;
                            }[];
                            ok: boolean;
                            warnings: {
                                code: string;
                                column?: number;
                                file?: string;
                                line?: number;
                                message: string;
                                path?: string;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's settings: its name, and how many of its runs may run at once (null: no limit of its own) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The team's settings */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            maxConcurrentRuns: number | null;
                            name: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Admins: rename the team or set how many of its runs may run at once (null removes the limit); fields left out keep their value */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        maxConcurrentRuns?: number | null;
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description The team's settings as stored */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            maxConcurrentRuns: number | null;
                            name: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's step templates with their current versions and parameters */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Templates */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            templates: {
                                description: string;
                                name: string;
                                /** @description empty when the current version does not read */
                                parameters: {
                                    default?: unknown;
                                    name: string;
                                    required: boolean;
                                }[];
                                /** @description ISO 8601 */
                                updatedAt: string;
                                version: number | null;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/templates/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A step template's current text, parameters and versions */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The template */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: string;
                            description: string;
                            name: string;
                            /** @description empty when the current version does not read */
                            parameters: {
                                default?: unknown;
                                name: string;
                                required: boolean;
                            }[];
                            /** @description ISO 8601 */
                            updatedAt: string;
                            version: number | null;
                            versions: {
                                /** @description ISO 8601 */
                                createdAt: string;
                                number: number;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Members: save a step template as a new version (workflows pick it up when they are saved again) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the template file's YAML (AWF's template form) */
                        content: string;
                        /** @default  */
                        description?: string;
                    };
                };
            };
            responses: {
                /** @description Saved */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description false when the text was unchanged and no version was made */
                            created: boolean;
                            name: string;
                            version: number;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        /** Members: delete a step template (saved workflow versions keep their pinned copy) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            name: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/templates/{name}/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Validate a template file without saving it */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description the template file's YAML (AWF's template form) */
                        content: string;
                        /** @default  */
                        description?: string;
                    };
                };
            };
            responses: {
                /** @description Diagnostics */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            errors: {
                                code: string;
                                column?: number;
                                file?: string;
                                line?: number;
                                message: string;
                                path?: string;
                            }[];
                            ok: boolean;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** API tokens with who made each (an admin sees every member's, a member their own): the live ones, then those revoked in the last 30 days with when and why */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Tokens */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tokens: {
                                /** @description ISO 8601 */
                                createdAt: string;
                                createdBy: {
                                    email: string;
                                    id: string;
                                    name: string;
                                };
                                expiresAt: string | null;
                                id: string;
                                lastUsedAt: string | null;
                                /** @description the token it was made with over the API; it never outlives that one */
                                madeWith: {
                                    id: string;
                                    name: string;
                                    prefix: string;
                                } | null;
                                name: string;
                                prefix: string;
                                /** @description when it stopped working; null while it is live */
                                revokedAt: string | null;
                                /** @description who revoked it by hand */
                                revokedBy: {
                                    email: string;
                                    id: string;
                                    name: string;
                                } | null;
                                /** @description why: revoked (by hand, see revokedBy), member_removed (its maker left the team), maker_revoked (the token it was made with was revoked), password_changed (made after a password reset link was issued for its maker, whose password then changed), account_claimed (its maker's unverified account was claimed by the verified owner of the email) */
                                revokedReason: ("revoked" | "member_removed" | "maker_revoked" | "password_changed" | "account_claimed") | null;
                                /** @description the most the token may do (never more than its owner's current role); null: its owner's role */
                                role: ("owner" | "admin" | "member" | "viewer") | null;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Make an API token that acts as you in this team, with a role up to yours (and never above your current role) and an optional expiry; it never outlives the token this request came with, and is revoked with it. The token is shown in this answer only */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description days until the token stops working; never when left out. A token made with a token never outlives that token */
                        expiresInDays?: number;
                        name: string;
                        /**
                         * @description the most the token may do, up to your own role (your role when left out)
                         * @enum {string}
                         */
                        role?: "owner" | "admin" | "member" | "viewer";
                    };
                };
            };
            responses: {
                /** @description The token */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            expiresAt: string | null;
                            id: string;
                            prefix: string;
                            role: ("owner" | "admin" | "member" | "viewer") | null;
                            token: string;
                        };
                    };
                };
                /** @description Bad input, or an expiresInDays longer than the installation allows (USER.TOKEN.LIFETIME_TOO_LONG) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a token, and every token made with it: a member their own, an admin anyone's */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Revoked */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/triggers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A trigger */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The trigger */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description whether the caller may change, pause, resume, rotate or delete it: the member it runs as, or an admin */
                            canManage: boolean;
                            /** @description ISO 8601 */
                            createdAt: string;
                            cron: string | null;
                            id: string;
                            inputMap: {
                                [key: string]: string;
                            };
                            inputs: {
                                [key: string]: unknown;
                            };
                            /** @enum {string} */
                            kind: "schedule" | "webhook";
                            lastError: string | null;
                            lastFiredAt: string | null;
                            lastRunId: string | null;
                            name: string;
                            /** @description schedule: the next three fire times */
                            nextFires: string[];
                            paused: boolean;
                            /** @description the member its runs start as, with their role and own connector accounts: its creator, or the admin who last changed it; null when that user is gone */
                            runsAs: {
                                id: string;
                                name: string;
                            } | null;
                            timezone: string | null;
                            /** @description webhook: POST here (under the dashboard's address) with X-Switchyard-Signature */
                            webhookPath: string | null;
                            workflowId: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** The member it runs as, or an admin: change a trigger's name, schedule, inputs or input map; an admin's change of someone else's trigger makes it run as the admin */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        cron?: string;
                        /** @description webhook: input name -> RFC 6901 JSON pointer into the request body */
                        inputMap?: {
                            [key: string]: string;
                        };
                        /** @description input values every run gets (webhook: the defaults under the mapped ones) */
                        inputs?: {
                            [key: string]: unknown;
                        };
                        name?: string;
                        timezone?: string;
                    };
                };
            };
            responses: {
                /** @description The trigger */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description whether the caller may change, pause, resume, rotate or delete it: the member it runs as, or an admin */
                            canManage: boolean;
                            /** @description ISO 8601 */
                            createdAt: string;
                            cron: string | null;
                            id: string;
                            inputMap: {
                                [key: string]: string;
                            };
                            inputs: {
                                [key: string]: unknown;
                            };
                            /** @enum {string} */
                            kind: "schedule" | "webhook";
                            lastError: string | null;
                            lastFiredAt: string | null;
                            lastRunId: string | null;
                            name: string;
                            /** @description schedule: the next three fire times */
                            nextFires: string[];
                            paused: boolean;
                            /** @description the member its runs start as, with their role and own connector accounts: its creator, or the admin who last changed it; null when that user is gone */
                            runsAs: {
                                id: string;
                                name: string;
                            } | null;
                            timezone: string | null;
                            /** @description webhook: POST here (under the dashboard's address) with X-Switchyard-Signature */
                            webhookPath: string | null;
                            workflowId: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        /** The member it runs as, or an admin: delete a trigger (a schedule stops firing) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/triggers/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The member it runs as, or an admin: pause a trigger (a schedule stops firing, a webhook answers 409); whom it runs as stays */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Paused */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description whether the caller may change, pause, resume, rotate or delete it: the member it runs as, or an admin */
                            canManage: boolean;
                            /** @description ISO 8601 */
                            createdAt: string;
                            cron: string | null;
                            id: string;
                            inputMap: {
                                [key: string]: string;
                            };
                            inputs: {
                                [key: string]: unknown;
                            };
                            /** @enum {string} */
                            kind: "schedule" | "webhook";
                            lastError: string | null;
                            lastFiredAt: string | null;
                            lastRunId: string | null;
                            name: string;
                            /** @description schedule: the next three fire times */
                            nextFires: string[];
                            paused: boolean;
                            /** @description the member its runs start as, with their role and own connector accounts: its creator, or the admin who last changed it; null when that user is gone */
                            runsAs: {
                                id: string;
                                name: string;
                            } | null;
                            timezone: string | null;
                            /** @description webhook: POST here (under the dashboard's address) with X-Switchyard-Signature */
                            webhookPath: string | null;
                            workflowId: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/triggers/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The member it runs as, or an admin: resume a paused trigger; whom it runs as stays */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Resumed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description whether the caller may change, pause, resume, rotate or delete it: the member it runs as, or an admin */
                            canManage: boolean;
                            /** @description ISO 8601 */
                            createdAt: string;
                            cron: string | null;
                            id: string;
                            inputMap: {
                                [key: string]: string;
                            };
                            inputs: {
                                [key: string]: unknown;
                            };
                            /** @enum {string} */
                            kind: "schedule" | "webhook";
                            lastError: string | null;
                            lastFiredAt: string | null;
                            lastRunId: string | null;
                            name: string;
                            /** @description schedule: the next three fire times */
                            nextFires: string[];
                            paused: boolean;
                            /** @description the member its runs start as, with their role and own connector accounts: its creator, or the admin who last changed it; null when that user is gone */
                            runsAs: {
                                id: string;
                                name: string;
                            } | null;
                            timezone: string | null;
                            /** @description webhook: POST here (under the dashboard's address) with X-Switchyard-Signature */
                            webhookPath: string | null;
                            workflowId: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/triggers/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The member it runs as, or an admin: give a webhook trigger a new signing secret (in this answer only), the old one stops working; an admin's rotation of someone else's trigger makes it run as the admin */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The new secret */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            /** @description the new signing secret, shown only in this answer */
                            secret: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description A schedule has no signing secret (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/variables": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's variables: plain values, and each secret's lanes (a secret's value is never returned) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Variables */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            variables: {
                                /** @description lanes whose runs may open the secret */
                                lanes: string[];
                                name: string;
                                secret: boolean;
                                /** @description ISO 8601 */
                                updatedAt: string;
                                /** @description null for a secret: its value is never returned */
                                value: string | null;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/variables/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Admins: set a variable; a new secret is open to the operator lane only unless lanes are given */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        lanes?: string[];
                        secret: boolean;
                        value: string;
                    };
                };
            };
            responses: {
                /** @description Set */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            lanes: string[];
                            name: string;
                            secret: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        /** Admins: delete a variable */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            name: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/variables/{name}/lanes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Admins: the lanes whose runs may open a secret */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        lanes: string[];
                    };
                };
            };
            responses: {
                /** @description The secret's lanes */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            lanes: string[];
                            name: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/waits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's waits for a person's answer, newest first, a page at a time; mine=true: only the open ones the caller may answer */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    limit?: number;
                    mine?: "true" | "false";
                    runId?: string;
                    status?: "open" | "answered" | "expired" | "cancelled";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of waits and the cursor of the next */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description pass as cursor for the next page; null on the last */
                            nextCursor: string | null;
                            waits: {
                                /** @description the answer given (or expiry's: decision fail fails the step, or the run of an input wait); a message wait's is { message } */
                                answer: {
                                    /** @description an elicitation's: accept, decline or cancel (the form's content is not shown) */
                                    action?: string;
                                    decision?: string;
                                    /** @description decision inputs: the names of the inputs given (their values are the run's) */
                                    inputs?: string[];
                                    message?: string;
                                } | null;
                                answeredAt: string | null;
                                answeredBy: {
                                    id: string;
                                    name: string;
                                } | null;
                                /** @description the API token's id when an automation answered */
                                answeredByToken: string | null;
                                /** @description who may answer, in words */
                                answerers: string;
                                /** @description SHA-256 of the call's arguments in RFC 8785 form: an approval holds for this call only */
                                argumentsHash: string | null;
                                /** @description ISO 8601 */
                                createdAt: string;
                                /** @description tool_call: { tool, source, arguments (scrubbed), argumentsHash, rule, ruleOrigin, agentText, state, provider }; input: { inputs: [{ name, type, required, default, description, validation: { enum, pattern, min, max, fileExtension } }], missing: [names of the required ones] }; message: { state, provider, turn, reply (scrubbed), prompt (turn 1) }; elicitation: { connector, tool, message (scrubbed), requestedSchema, fields: [{ name, type (string, number, integer, boolean, enum, multi), title, description, required, default, options, limits }], state } */
                                detail: unknown;
                                expiresAt: string | null;
                                id: string;
                                /** @description tool_call: approve or deny one held tool call; input: fill in the inputs a triggered run was started without; message: a conversation step's next message; elicitation: a connector server's form during a tool call */
                                kind: string;
                                lane: string;
                                /** @description whether the caller may answer it now */
                                mayAnswer: boolean;
                                /** @enum {string} */
                                minRole: "owner" | "admin" | "member" | "viewer";
                                /** @description the run's starter may not answer */
                                notStarter: boolean;
                                /** @description what expiry means: deny, fail or default */
                                onExpiry: string;
                                /** @description the run stopped holding a worker and resumes on the answer */
                                parked: boolean;
                                /** @description what the person is asked, in one line */
                                question: string;
                                /** @description why the caller may not answer an open wait */
                                refusal: string | null;
                                /** @description null: a connector console call's form */
                                run: {
                                    startedBy: {
                                        id: string;
                                        name: string;
                                    } | null;
                                    /** @enum {string} */
                                    status: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled";
                                    workflow: string;
                                } | null;
                                /** @description null: a call made by hand in the connector console */
                                runId: string | null;
                                /** @enum {string} */
                                status: "open" | "answered" | "expired" | "cancelled";
                                /** @description the agent attempt that waits */
                                stepRunId: string | null;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/waits/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One wait: its question, what it waits on (a tool call's tool, scrubbed arguments, rule), its answer and who may answer */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The wait */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the answer given (or expiry's: decision fail fails the step, or the run of an input wait); a message wait's is { message } */
                            answer: {
                                /** @description an elicitation's: accept, decline or cancel (the form's content is not shown) */
                                action?: string;
                                decision?: string;
                                /** @description decision inputs: the names of the inputs given (their values are the run's) */
                                inputs?: string[];
                                message?: string;
                            } | null;
                            answeredAt: string | null;
                            answeredBy: {
                                id: string;
                                name: string;
                            } | null;
                            /** @description the API token's id when an automation answered */
                            answeredByToken: string | null;
                            /** @description who may answer, in words */
                            answerers: string;
                            /** @description SHA-256 of the call's arguments in RFC 8785 form: an approval holds for this call only */
                            argumentsHash: string | null;
                            /** @description ISO 8601 */
                            createdAt: string;
                            /** @description tool_call: { tool, source, arguments (scrubbed), argumentsHash, rule, ruleOrigin, agentText, state, provider }; input: { inputs: [{ name, type, required, default, description, validation: { enum, pattern, min, max, fileExtension } }], missing: [names of the required ones] }; message: { state, provider, turn, reply (scrubbed), prompt (turn 1) }; elicitation: { connector, tool, message (scrubbed), requestedSchema, fields: [{ name, type (string, number, integer, boolean, enum, multi), title, description, required, default, options, limits }], state } */
                            detail: unknown;
                            expiresAt: string | null;
                            id: string;
                            /** @description tool_call: approve or deny one held tool call; input: fill in the inputs a triggered run was started without; message: a conversation step's next message; elicitation: a connector server's form during a tool call */
                            kind: string;
                            lane: string;
                            /** @description whether the caller may answer it now */
                            mayAnswer: boolean;
                            /** @enum {string} */
                            minRole: "owner" | "admin" | "member" | "viewer";
                            /** @description the run's starter may not answer */
                            notStarter: boolean;
                            /** @description what expiry means: deny, fail or default */
                            onExpiry: string;
                            /** @description the run stopped holding a worker and resumes on the answer */
                            parked: boolean;
                            /** @description what the person is asked, in one line */
                            question: string;
                            /** @description why the caller may not answer an open wait */
                            refusal: string | null;
                            /** @description null: a connector console call's form */
                            run: {
                                startedBy: {
                                    id: string;
                                    name: string;
                                } | null;
                                /** @enum {string} */
                                status: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled";
                                workflow: string;
                            } | null;
                            /** @description null: a call made by hand in the connector console */
                            runId: string | null;
                            /** @enum {string} */
                            status: "open" | "answered" | "expired" | "cancelled";
                            /** @description the agent attempt that waits */
                            stepRunId: string | null;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/waits/{id}/answer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Answer an open wait: approve or deny a tool call (a denial's message reaches the agent), fill in the inputs of an input wait, send a conversation's next message ({ message }; exit, quit or an empty one ends it), or answer a connector server's form ({ action: accept | decline | cancel, content }); a run parked on it is queued again to resume. An API token answers as its member */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        decision: "approve" | "deny";
                        message?: string;
                    } | {
                        inputs: {
                            [key: string]: unknown;
                        };
                    } | {
                        message: string;
                    } | {
                        /** @enum {string} */
                        action: "accept" | "decline" | "cancel";
                        content?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description The wait as answered */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description true when the run, parked on this wait, was queued again to resume */
                            resumed: boolean;
                            wait: {
                                /** @description the answer given (or expiry's: decision fail fails the step, or the run of an input wait); a message wait's is { message } */
                                answer: {
                                    /** @description an elicitation's: accept, decline or cancel (the form's content is not shown) */
                                    action?: string;
                                    decision?: string;
                                    /** @description decision inputs: the names of the inputs given (their values are the run's) */
                                    inputs?: string[];
                                    message?: string;
                                } | null;
                                answeredAt: string | null;
                                answeredBy: {
                                    id: string;
                                    name: string;
                                } | null;
                                /** @description the API token's id when an automation answered */
                                answeredByToken: string | null;
                                /** @description who may answer, in words */
                                answerers: string;
                                /** @description SHA-256 of the call's arguments in RFC 8785 form: an approval holds for this call only */
                                argumentsHash: string | null;
                                /** @description ISO 8601 */
                                createdAt: string;
                                /** @description tool_call: { tool, source, arguments (scrubbed), argumentsHash, rule, ruleOrigin, agentText, state, provider }; input: { inputs: [{ name, type, required, default, description, validation: { enum, pattern, min, max, fileExtension } }], missing: [names of the required ones] }; message: { state, provider, turn, reply (scrubbed), prompt (turn 1) }; elicitation: { connector, tool, message (scrubbed), requestedSchema, fields: [{ name, type (string, number, integer, boolean, enum, multi), title, description, required, default, options, limits }], state } */
                                detail: unknown;
                                expiresAt: string | null;
                                id: string;
                                /** @description tool_call: approve or deny one held tool call; input: fill in the inputs a triggered run was started without; message: a conversation step's next message; elicitation: a connector server's form during a tool call */
                                kind: string;
                                lane: string;
                                /** @description whether the caller may answer it now */
                                mayAnswer: boolean;
                                /** @enum {string} */
                                minRole: "owner" | "admin" | "member" | "viewer";
                                /** @description the run's starter may not answer */
                                notStarter: boolean;
                                /** @description what expiry means: deny, fail or default */
                                onExpiry: string;
                                /** @description the run stopped holding a worker and resumes on the answer */
                                parked: boolean;
                                /** @description what the person is asked, in one line */
                                question: string;
                                /** @description why the caller may not answer an open wait */
                                refusal: string | null;
                                /** @description null: a connector console call's form */
                                run: {
                                    startedBy: {
                                        id: string;
                                        name: string;
                                    } | null;
                                    /** @enum {string} */
                                    status: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled";
                                    workflow: string;
                                } | null;
                                /** @description null: a call made by hand in the connector console */
                                runId: string | null;
                                /** @enum {string} */
                                status: "open" | "answered" | "expired" | "cancelled";
                                /** @description the agent attempt that waits */
                                stepRunId: string | null;
                            };
                        };
                    };
                };
                /** @description An answer of the wrong shape for the wait's kind (a decision for a message wait, a message for a tool call), or inputs that fail the workflow's declaration (USER.INPUT.VALIDATION_FAILED naming inputs.<name>) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The caller may not answer this wait (USER.WAIT.NOT_ALLOWED, saying which rule) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such wait in the team, or it was cancelled with its run */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Already answered (USER.WAIT.ALREADY_ANSWERED) or expired (USER.WAIT.EXPIRED) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List workflows */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Workflows */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            workflows: {
                                description: string | null;
                                id: string;
                                lane: string;
                                name: string;
                                /** @description the current version's number */
                                version: number | null;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Save a workflow bundle as a new version (validated whole; nothing is stored on error) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description path of the workflow YAML within files
                         * @default workflow.yaml
                         */
                        entry?: string;
                        /** @description path → content */
                        files: {
                            [key: string]: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Saved */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            bundleHash: string;
                            version: number;
                            warnings: {
                                code: string;
                                column?: number;
                                file?: string;
                                line?: number;
                                message: string;
                                path?: string;
                            }[];
                            workflowId: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 6 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Invalid workflow; details.diagnostics lists every problem */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workflow's current version: its files, its states and transitions as a graph, and its input declaration */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The workflow */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            bundleHash: string;
                            description: string;
                            /** @description path of the workflow YAML within files */
                            entry: string;
                            /** @description path → content */
                            files: {
                                [key: string]: string;
                            };
                            /** @description the git repository it is synced from (read-only: change the file there and sync) */
                            git: {
                                branch: string;
                                /** @description the commit the current version came from */
                                commitId: string | null;
                                /** @description the workflow file in the repository */
                                path: string;
                                sourceId: string;
                                url: string;
                            } | null;
                            graph: {
                                edges: {
                                    from: string;
                                    /** @enum {string} */
                                    kind: "success" | "failure" | "transition" | "branch" | "body" | "next" | "loop_back" | "complete";
                                    label?: string;
                                    to: string;
                                }[];
                                initial: string;
                                nodes: {
                                    children?: string[];
                                    failMessage?: string;
                                    /** @description the parallel or loop state it runs under */
                                    group?: string;
                                    id: string;
                                    /** @enum {string} */
                                    kind: "step" | "agent" | "terminal" | "parallel" | "for_each" | "while" | "call_workflow" | "operation";
                                    provider?: string;
                                    /** @enum {string} */
                                    terminalStatus?: "success" | "failure";
                                    /** @description the workflow a call_workflow state calls */
                                    workflow?: string;
                                }[];
                            } | null;
                            id: string;
                            inputs: {
                                default?: unknown;
                                description?: string;
                                name: string;
                                required: boolean;
                                /** @enum {string} */
                                type: "string" | "integer" | "number" | "boolean" | "array";
                                validation: {
                                    enum?: unknown[];
                                    fileExists?: boolean;
                                    fileExtension?: string[];
                                    max?: number;
                                    min?: number;
                                    pattern?: string;
                                };
                            }[];
                            lane: string;
                            name: string;
                            /** @description the workflow pack it comes from (read-only: the pack is installed again to change it) */
                            pack: string | null;
                            /** @description the library skills this version pinned: the team's version, or null for a copy the team no longer has */
                            skills: {
                                name: string;
                                path: string;
                                version: number | null;
                            }[];
                            /** @description the step templates this version pinned: the team's version, or null for the bundle's own copy */
                            templates: {
                                name: string;
                                path: string;
                                version: number | null;
                            }[];
                            version: number;
                            versionId: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Archive a workflow (who may save in its lane): it leaves the list and can no longer be started; its versions and runs stay */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Archived */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description ISO 8601 */
                            archivedAt: string;
                            id: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A unified diff of each file between two versions (?from=1&to=2; by default the current version against the one before) */
        get: {
            parameters: {
                query?: {
                    from?: number;
                    to?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The diff */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            files: {
                                /** @enum {string} */
                                change: "added" | "removed" | "changed" | "unchanged";
                                lines: {
                                    /** @enum {string} */
                                    kind: "add" | "del" | "context" | "hunk";
                                    newLine?: number;
                                    oldLine?: number;
                                    text: string;
                                }[];
                                /** @description a unified diff */
                                patch: string;
                                path: string;
                            }[];
                            from: number;
                            to: number;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}/replay-suites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workflow's suite replays, newest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Suites */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            suites: {
                                /** @description ISO 8601 */
                                createdAt: string;
                                id: string;
                                options: {
                                    /**
                                     * @description the installed CLI that runs it: the pinned one (default) or the newest installed
                                     * @enum {string}
                                     */
                                    agentVersion?: "pinned" | "latest";
                                    /** @description another model (options.model) */
                                    model?: string;
                                    /** @description another prompt */
                                    prompt?: string;
                                    /**
                                     * @description another provider; the recorded one when unset
                                     * @enum {string}
                                     */
                                    provider?: "claude" | "codex" | "gemini" | "opencode" | "openai_compatible";
                                    /**
                                     * @description a call with no recording left: a tool error (default), or built-ins run live in the sandbox (connector tools never do)
                                     * @enum {string}
                                     */
                                    unmatched?: "error" | "live_builtins";
                                };
                                /** @description the replay runs it started */
                                replays: number;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Replay all examples: one replay run for the last attempt of each agent state of each run marked as an example, all with the same changes */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /**
                         * @description the installed CLI that runs it: the pinned one (default) or the newest installed
                         * @enum {string}
                         */
                        agentVersion?: "pinned" | "latest";
                        /** @description another model (options.model) */
                        model?: string;
                        /** @description another prompt */
                        prompt?: string;
                        /**
                         * @description another provider; the recorded one when unset
                         * @enum {string}
                         */
                        provider?: "claude" | "codex" | "gemini" | "opencode" | "openai_compatible";
                        /**
                         * @description a call with no recording left: a tool error (default), or built-ins run live in the sandbox (connector tools never do)
                         * @enum {string}
                         */
                        unmatched?: "error" | "live_builtins";
                    };
                };
            };
            responses: {
                /** @description The suite and its replay runs, queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            runs: {
                                id: string;
                                replayOfId: string;
                            }[];
                        };
                    };
                };
                /** @description No example run has a replayable agent attempt (USER.REPLAY.NO_EXAMPLES) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a run of the workflow, by id or by name (`speckit%2Fspecify` for a pack's) (its current version, or versionId); it is queued, read it with GET /runs/{id}. With an Idempotency-Key header, a retry of the same request answers 200 with the first run and starts nothing */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /** @description the workflow's inputs by name */
                        inputs?: {
                            [key: string]: unknown;
                        };
                        /** @description a saved version of the workflow to run; its current version when unset */
                        versionId?: string;
                    };
                };
            };
            responses: {
                /** @description The run an earlier request with the same Idempotency-Key started; nothing new started */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            /** @enum {string} */
                            status: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled";
                        };
                    };
                };
                /** @description Queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            /** @enum {string} */
                            status: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled";
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The Idempotency-Key was used for another request (USER.IDEMPOTENCY_KEY_REUSED) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}/triggers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workflow's schedule and webhook triggers, with each schedule's next fire times, whom each runs as and what the caller may do */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Triggers */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description whether the caller may create triggers of this workflow (a member who may start runs in its lane) */
                            canCreate: boolean;
                            triggers: {
                                /** @description whether the caller may change, pause, resume, rotate or delete it: the member it runs as, or an admin */
                                canManage: boolean;
                                /** @description ISO 8601 */
                                createdAt: string;
                                cron: string | null;
                                id: string;
                                inputMap: {
                                    [key: string]: string;
                                };
                                inputs: {
                                    [key: string]: unknown;
                                };
                                /** @enum {string} */
                                kind: "schedule" | "webhook";
                                lastError: string | null;
                                lastFiredAt: string | null;
                                lastRunId: string | null;
                                name: string;
                                /** @description schedule: the next three fire times */
                                nextFires: string[];
                                paused: boolean;
                                /** @description the member its runs start as, with their role and own connector accounts: its creator, or the admin who last changed it; null when that user is gone */
                                runsAs: {
                                    id: string;
                                    name: string;
                                } | null;
                                timezone: string | null;
                                /** @description webhook: POST here (under the dashboard's address) with X-Switchyard-Signature */
                                webhookPath: string | null;
                                workflowId: string;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Members who may start runs in the workflow's lane: create a schedule (cron, time zone) or webhook trigger, which runs as them; a webhook's signing secret is in this answer only */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description schedule: 5 fields, or 6 with seconds first */
                        cron?: string;
                        /** @description webhook: input name -> RFC 6901 JSON pointer into the request body */
                        inputMap?: {
                            [key: string]: string;
                        };
                        /** @description input values every run gets (webhook: the defaults under the mapped ones) */
                        inputs?: {
                            [key: string]: unknown;
                        };
                        /** @enum {string} */
                        kind: "schedule" | "webhook";
                        name?: string;
                        paused?: boolean;
                        /** @description schedule: an IANA time zone, UTC when unset */
                        timezone?: string;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description webhook: the signing secret, shown only in this answer */
                            secret: string | null;
                            trigger: {
                                /** @description whether the caller may change, pause, resume, rotate or delete it: the member it runs as, or an admin */
                                canManage: boolean;
                                /** @description ISO 8601 */
                                createdAt: string;
                                cron: string | null;
                                id: string;
                                inputMap: {
                                    [key: string]: string;
                                };
                                inputs: {
                                    [key: string]: unknown;
                                };
                                /** @enum {string} */
                                kind: "schedule" | "webhook";
                                lastError: string | null;
                                lastFiredAt: string | null;
                                lastRunId: string | null;
                                name: string;
                                /** @description schedule: the next three fire times */
                                nextFires: string[];
                                paused: boolean;
                                /** @description the member its runs start as, with their role and own connector accounts: its creator, or the admin who last changed it; null when that user is gone */
                                runsAs: {
                                    id: string;
                                    name: string;
                                } | null;
                                timezone: string | null;
                                /** @description webhook: POST here (under the dashboard's address) with X-Switchyard-Signature */
                                webhookPath: string | null;
                                workflowId: string;
                            };
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 1 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workflow's saved versions, newest first, with who saved each and when */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Versions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            versions: {
                                bundleHash: string;
                                /** @description the git commit a sync made it from; null for a version saved otherwise */
                                commitId: string | null;
                                /** @description ISO 8601 */
                                createdAt: string;
                                /** @description who saved it; null when unknown or no longer a member */
                                createdBy: {
                                    email: string;
                                    id: string;
                                    name: string | null;
                                } | null;
                                current: boolean;
                                id: string;
                                number: number;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{id}/versions/{number}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One saved version: its files, graph and input declaration */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    number: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The version */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            bundleHash: string;
                            /** @description the git commit a sync made it from; null for a version saved otherwise */
                            commitId: string | null;
                            /** @description ISO 8601 */
                            createdAt: string;
                            /** @description who saved it; null when unknown or no longer a member */
                            createdBy: {
                                email: string;
                                id: string;
                                name: string | null;
                            } | null;
                            current: boolean;
                            entry: string;
                            /** @description path → content */
                            files: {
                                [key: string]: string;
                            };
                            /** @description null when the version no longer parses */
                            graph: {
                                edges: {
                                    from: string;
                                    /** @enum {string} */
                                    kind: "success" | "failure" | "transition" | "branch" | "body" | "next" | "loop_back" | "complete";
                                    label?: string;
                                    to: string;
                                }[];
                                initial: string;
                                nodes: {
                                    children?: string[];
                                    failMessage?: string;
                                    /** @description the parallel or loop state it runs under */
                                    group?: string;
                                    id: string;
                                    /** @enum {string} */
                                    kind: "step" | "agent" | "terminal" | "parallel" | "for_each" | "while" | "call_workflow" | "operation";
                                    provider?: string;
                                    /** @enum {string} */
                                    terminalStatus?: "success" | "failure";
                                    /** @description the workflow a call_workflow state calls */
                                    workflow?: string;
                                }[];
                            } | null;
                            id: string;
                            inputs: {
                                default?: unknown;
                                description?: string;
                                name: string;
                                required: boolean;
                                /** @enum {string} */
                                type: "string" | "integer" | "number" | "boolean" | "array";
                                validation: {
                                    enum?: unknown[];
                                    fileExists?: boolean;
                                    fileExtension?: string[];
                                    max?: number;
                                    min?: number;
                                    pattern?: string;
                                };
                            }[];
                            number: number;
                            /** @description the library skills this version pinned: the team's version, or null for a copy the team no longer has */
                            skills: {
                                name: string;
                                path: string;
                                version: number | null;
                            }[];
                            /** @description the step templates this version pinned: the team's version, or null for the bundle's own copy */
                            templates: {
                                name: string;
                                path: string;
                                version: number | null;
                            }[];
                            workflowId: string;
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Validate a bundle without saving; when it parses, its graph and input declaration too */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description path of the workflow YAML within files
                         * @default workflow.yaml
                         */
                        entry?: string;
                        /** @description path → content */
                        files: {
                            [key: string]: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Diagnostics */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            errors: {
                                code: string;
                                column?: number;
                                file?: string;
                                line?: number;
                                message: string;
                                path?: string;
                            }[];
                            /** @description the states and transitions, when it parsed */
                            graph: {
                                edges: {
                                    from: string;
                                    /** @enum {string} */
                                    kind: "success" | "failure" | "transition" | "branch" | "body" | "next" | "loop_back" | "complete";
                                    label?: string;
                                    to: string;
                                }[];
                                initial: string;
                                nodes: {
                                    children?: string[];
                                    failMessage?: string;
                                    /** @description the parallel or loop state it runs under */
                                    group?: string;
                                    id: string;
                                    /** @enum {string} */
                                    kind: "step" | "agent" | "terminal" | "parallel" | "for_each" | "while" | "call_workflow" | "operation";
                                    provider?: string;
                                    /** @enum {string} */
                                    terminalStatus?: "success" | "failure";
                                    /** @description the workflow a call_workflow state calls */
                                    workflow?: string;
                                }[];
                            } | null;
                            /** @description the input declaration, when it parsed */
                            inputs: {
                                default?: unknown;
                                description?: string;
                                name: string;
                                required: boolean;
                                /** @enum {string} */
                                type: "string" | "integer" | "number" | "boolean" | "array";
                                validation: {
                                    enum?: unknown[];
                                    fileExists?: boolean;
                                    fileExtension?: string[];
                                    max?: number;
                                    min?: number;
                                    pattern?: string;
                                };
                            }[];
                            /** @description the workflow's name, when it parsed */
                            name: string | null;
                            ok: boolean;
                            warnings: {
                                code: string;
                                column?: number;
                                file?: string;
                                line?: number;
                                message: string;
                                path?: string;
                            }[];
                        };
                    };
                };
                /** @description Bad input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or unknown token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The token's member may not do this */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found in the token's team */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The body is larger than 6 MiB (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unavailable for now (the run queue, say); retry after Retry-After seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        Error: {
            error: {
                /** @description a code of the error table (packages/core/src/errors/error-codes.ts) */
                code: string;
                details?: unknown;
                location?: {
                    column?: number;
                    file?: string;
                    line?: number;
                    path?: string;
                };
                message: string;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
