"""Communication: mailboxes, transactional mail, team chats, SMS, push notifications and meetings."""
