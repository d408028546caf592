// Every use case of the domain layer, by name: what the authorization matrix test enumerates
// (a use case exported from an area's index without a matrix row fails that test).
import * as audit from "./audit/index.ts";
import * as connections from "./connections/index.ts";
import * as jobs from "./jobs/index.ts";
import * as members from "./members/index.ts";
import * as outputs from "./outputs/index.ts";
import * as providers from "./providers/index.ts";
import * as repositories from "./repositories/index.ts";
import * as runs from "./runs/index.ts";
import * as triggers from "./triggers/index.ts";
import * as webhooks from "./webhooks/index.ts";
import * as workspaces from "./workspaces/index.ts";

export const useCases = {
  ...audit,
  ...connections,
  ...jobs,
  ...members,
  ...outputs,
  ...providers,
  ...repositories,
  ...runs,
  ...triggers,
  ...webhooks,
  ...workspaces,
};

export type UseCaseName = keyof typeof useCases;
