-- The day the application for a ride-hailing authorization was protocolled,
-- the date the driver's history requirements are judged at (APP-ART12-IV). NULL: granted
-- before it was recorded (judged at the grant).
ALTER TABLE app_authorizations ADD COLUMN protocolled_on DATE;
