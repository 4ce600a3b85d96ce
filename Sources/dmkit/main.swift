print("dmkit")
