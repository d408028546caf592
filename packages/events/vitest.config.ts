import { workspaceTestConfig } from "../../vitest.shared.ts";

export default workspaceTestConfig(import.meta.dirname);
