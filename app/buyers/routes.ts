/*
 * Buyers' side: public listing pages, their inquiry form, catalogue model
 * pages, and the visits report of the API.
 */
