// One typed call to the API, shared by the scripts here: the body and the answer of each
// operation are the types that openapi-typescript generates from openapi.yaml (schema.ts).
import type { components, operations } from "./schema";

export type Schemas = components["schemas"];
type Operation = keyof operations;
type JsonOf<T> = T extends { content: { "application/json": infer Body } } ? Body : never;
type Success<O extends Operation> = JsonOf<
  operations[O]["responses"][keyof operations[O]["responses"] & (200 | 201)]
>;
type RequestBody<O extends Operation> = JsonOf<NonNullable<operations[O]["requestBody"]>>;

export class ProblemError extends Error {
  constructor(
    operation: Operation,
    readonly problem: Schemas["Problem"],
  ) {
    super(`${operation}: ${problem.status} ${problem.code}: ${problem.detail}`);
  }
}

// The API at `base`, as the player whose bearer token is `token` (none until registered).
export class Api {
  token: string | undefined;

  constructor(readonly base: string) {}

  // One request to operation O; any answer that is not 2xx is thrown as its ProblemError.
  async call<O extends Operation>(
    operation: O,
    method: "GET" | "POST" | "PATCH",
    path: string,
    body?: RequestBody<O>,
  ): Promise<Success<O>> {
    const response = await fetch(`${this.base}/api/v1${path}`, {
      method,
      headers: {
        "Content-Type": "application/json",
        ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}),
      },
      body: method === "GET" ? undefined : JSON.stringify(body ?? {}),
    });
    const json: unknown = await response.json();
    if (!response.ok) {
      throw new ProblemError(operation, json as Schemas["Problem"]);
    }
    return json as Success<O>;
  }
}
