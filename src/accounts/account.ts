/**
 * What an account is to the rest of the code, and who owns an API key: the types the account service returns and
 * the key-owner memory keeps, apart from both so neither imports the other.
 */

export interface Account {
  id: number;
  email: string;
  created_at: string;
  updated_at: string;
}

/** The owner of an API key as a request needs it: the account, which key, and the reports version. */
export interface KeyOwner {
  account: Account;
  keyId: number;
  reportsVersion: number;
}
