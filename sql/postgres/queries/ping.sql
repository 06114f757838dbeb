-- One round trip (the service's readiness check).
-- returns: 1
SELECT 1;
