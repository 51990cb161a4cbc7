-- Refunds made in a gateway's own dashboard are learnt from its webhook and recorded with the
-- gateway's name (issue 17); every earlier refund was made by the shop.
ALTER TABLE "refunds" ADD COLUMN "made_in" text DEFAULT 'shop' NOT NULL;