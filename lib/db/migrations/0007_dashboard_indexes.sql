DROP INDEX "deposits_merchant";--> statement-breakpoint
DROP INDEX "invoices_merchant_created";--> statement-breakpoint
DROP INDEX "orders_merchant_created";--> statement-breakpoint
DROP INDEX "webhook_events_merchant";--> statement-breakpoint
CREATE INDEX "invoices_merchant_status" ON "invoices" USING btree ("merchant_id","mode","status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "invoices_client_order" ON "invoices" USING btree ("merchant_id","mode","client_order");--> statement-breakpoint
CREATE INDEX "orders_merchant_status" ON "orders" USING btree ("merchant_id","mode","status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "orders_merchant_network" ON "orders" USING btree ("merchant_id","mode","network","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "orders_merchant_currency" ON "orders" USING btree ("merchant_id","mode","currency","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "payments_merchant_counted" ON "payments" USING btree ("merchant_id","mode","created_at","network","currency","amount") WHERE "payments"."status" = 'processed';--> statement-breakpoint
CREATE INDEX "webhook_events_failed" ON "webhook_events" USING btree ("merchant_id","mode","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "webhook_events"."state" in ('failed', 'refused');--> statement-breakpoint
CREATE INDEX "deposits_merchant" ON "deposits" USING btree ("merchant_id","mode","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "invoices_merchant_created" ON "invoices" USING btree ("merchant_id","mode","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "orders_merchant_created" ON "orders" USING btree ("merchant_id","mode","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "webhook_events_merchant" ON "webhook_events" USING btree ("merchant_id","mode","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);