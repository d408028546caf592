-- CreateIndex
CREATE INDEX "AuditEvent_workspaceId_id_idx" ON "AuditEvent"("workspaceId", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_workspaceId_actorId_id_idx" ON "AuditEvent"("workspaceId", "actorId", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_workspaceId_action_id_idx" ON "AuditEvent"("workspaceId", "action", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_workspaceId_connectionId_id_idx" ON "AuditEvent"("workspaceId", "connectionId", "id");
