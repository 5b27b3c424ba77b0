CREATE TABLE "user_devices" (
	"token_hash" text NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_signed_in_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_devices_token_hash_user_id_pk" PRIMARY KEY("token_hash","user_id")
);
--> statement-breakpoint
ALTER TABLE "sign_in_throttle" ADD COLUMN "budget_spent_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "user_devices" ADD CONSTRAINT "user_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;